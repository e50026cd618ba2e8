import Glibc
import XToastCore
import XToastRender
import XToastSystem

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
        let file: (bytes: [UInt8], truncated: Bool)
        do {
            file = try RegularFile.read(path, limit: byteLimit)
        } catch {
            // The default file is optional: only its absence is quiet.
            if request.configFile != nil || error.cause != .noSuchFile { warn("cannot read config file \"\(path)\": \(error.description)") }
            return nil
        }
        if file.truncated { warn("\(path): larger than \(byteLimit >> 20) MiB; only its beginning is read") }
        let decoded = MessageText.decode(file.bytes)
        if decoded.repaired { warn("\(path): not valid UTF-8; invalid bytes are read as \u{FFFD}") }
        return (ConfigFile(parsing: decoded.text), path)
    }

    private static func environment(_ name: String) -> String? { Environment.value(name) }
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
