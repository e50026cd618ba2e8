import Glibc
import XToastCore

/// Finds and reads the config file.
enum ConfigSource {
    /// Larger files are not read: a config file is a few lines.
    static let byteLimit = 1 << 20

    /// The file `--config` names, else `$XDG_CONFIG_HOME/xtoast/config`, else
    /// `~/.config/xtoast/config`; nil with `--no-config` or when the default file is absent.
    static func load(_ request: Configuration) -> (file: ConfigFile, path: String)? {
        if request.noConfig { return nil }
        let path: String
        if let explicit = request.configFile {
            path = explicit
        } else if let home = environment("XDG_CONFIG_HOME"), home.hasPrefix("/") {
            path = home + "/xtoast/config"
        } else if let home = environment("HOME") {
            path = home + "/.config/xtoast/config"
        } else {
            return nil
        }
        guard let bytes = read(path) else {
            // Only a file the user named is missed; the default one is optional.
            if request.configFile != nil { warn("cannot read config file \"\(path)\": \(String(cString: strerror(errno)))") }
            return nil
        }
        let decoded = MessageText.decode(bytes)
        if decoded.repaired { warn("\(path): not valid UTF-8; invalid bytes are read as \u{FFFD}") }
        return (ConfigFile(parsing: decoded.text), path)
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while bytes.count < byteLimit {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}

/// When to show the toast: now, after `--in`, or at `--at` (in `--tz`).
enum Scheduling {
    static func delivery(for request: Configuration) throws(OptionError) -> (Delivery, (@Sendable () -> Double?)?) {
        switch (request.delay, request.at) {
        case (nil, nil):
            if request.timeZone != nil { throw OptionError("--tz goes with --at") }
            return (.now, nil)
        case (let seconds?, nil):
            return (.after(seconds), nil)
        case (nil, let time?):
            let instant = try WallClock.instant(of: time, zone: request.timeZone, now: WallClock.now())
            // Without --tz, "09:00" follows the local zone if it changes while waiting.
            guard request.timeZone == nil else { return (.at(instant), nil) }
            let reschedule: @Sendable () -> Double? = { try? WallClock.instant(of: time, zone: nil, now: WallClock.now()) }
            return (.at(instant), reschedule)
        case (_?, _?):
            throw OptionError("--in and --at cannot be used together")
        }
    }
}
