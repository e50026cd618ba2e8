import Foundation
import Testing

/// A real sound server with a null sink (PulseAudio), its monitor recorded: what a toast plays
/// is heard there, or it is not (issue #30).
final class SoundServer {
    let folder = temporaryPath("-pulse")
    private let daemon: Child

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        daemon = try Child(
            [
                "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "-L", "module-null-sink sink_name=null", "-L",
                "module-native-protocol-unix",
            ], environment: ["XDG_RUNTIME_DIR": folder, "HOME": folder], stderr: folder + "/pulse.log")
        // A socket the server makes: nothing to wait on but it.
        try waitUntil("pulseaudio listening", timeout: 20) {
            guard daemon.isRunning else { throw TestFailure("pulseaudio did not start") }
            return FileManager.default.fileExists(atPath: folder + "/pulse/native")
        }
    }

    /// What a client needs to find it, whatever its runtime folder.
    var environment: [String: String?] { ["PULSE_SERVER": "unix:\(folder)/pulse/native"] }

    /// The loudest sample of what the sink played while `body` ran (16-bit), recorded from the
    /// sink's monitor: started before `body`, once the server lists the recording, and stopped
    /// when `body` returned and the players left the sink.
    func loudest(_ body: () throws -> Void) throws -> Int {
        let recording = folder + "/recording.raw"
        let recorder = try Child(
            ["parec", "-d", "null.monitor", "--raw", "--format=s16le", "--rate=44100", "--channels=2"], environment: environment,
            stdout: recording)
        defer { recorder.stop() }
        // The monitor's stream takes a while to start: recorded silence coming in says it runs.
        try waitUntil("the recording runs", timeout: 20) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: recording)
            return (attributes?[.size] as? Int ?? 0) > 44_100
        }
        try body()
        try waitUntil("nothing plays", timeout: 20) { try pactl(["list", "short", "sink-inputs"]).isEmpty }
        recorder.stop()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: recording))
        return bytes.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).reduce(0) { max($0, abs(Int($1))) }
        }
    }

    private func pactl(_ arguments: [String]) throws -> String {
        let output = temporaryPath(".pactl")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let child = try Child(["pactl"] + arguments, environment: environment, stdout: output)
        guard child.wait(timeout: 10) == 0 else { throw TestFailure("pactl \(arguments) failed") }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    deinit {
        daemon.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

extension OnScreen {
    @Suite(.serialized) struct Sounds {
        /// A sound of the theme by name, and a file: heard. A toast without one, or an urgent
        /// one going through a pause: silence.
        @Test func aToastsSoundIsHeardUnlessPaused() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let server = try SoundServer()
            func toast(_ arguments: [String]) throws {
                let result = try XToastProcess.run(["--duration", "1.5"] + arguments, display: display, environment: server.environment)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            }
            #expect(try server.loudest { try toast(["--sound", "message-new-instant", "Named"]) } > 100)
            #expect(try server.loudest { try toast(["--sound", "/usr/share/sounds/freedesktop/stereo/complete.oga", "A file"]) } > 1000)
            #expect(try server.loudest { try toast(["Silent"]) } == 0)
            _ = try XToastProcess.run(["--pause"], display: display)
            let paused = try server.loudest { try toast(["--urgent", "--sound", "complete", "Through the pause"]) }
            _ = try XToastProcess.run(["--resume"], display: display)
            #expect(paused == 0)
            try expectOthersStillShow(display, watcher)
        }

        /// A file that is no sound to play (a FIFO would hold the player for ever): one warning,
        /// and the toast shows all the same.
        @Test func aFIFOIsNotPlayed() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let server = try SoundServer()
            let fifo = temporaryPath(".fifo")
            mkfifo(fifo, 0o600)
            defer { unlink(fifo) }
            let result = try XToastProcess.run(
                ["--duration", "0.5", "--sound", fifo, "FIFO"], display: display, environment: server.environment)
            #expect(result.status == 0)
            #expect(result.stderr == "xtoast: warning: cannot play \"\(fifo)\": not a regular file; the toast shows without it\n")
            try expectOthersStillShow(display, watcher)
        }

        /// An application's `sound-name` through the service: heard.
        @Test func aNotificationsSoundNameIsHeard() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let server = try SoundServer()
            let bus = try PrivateBus(display: display, environment: server.environment)
            let loudest = try server.loudest {
                _ = try bus.run(["notify-send", "-t", "1500", "-h", "string:sound-name:complete", "With a sound"])
                let toast = try #require(try watcher.waitForToasts().first)
                _ = try watcher.waitForDestroy(toast)
            }
            #expect(loudest > 1000)
            try expectOthersStillShow(display, watcher)
        }
    }
}
