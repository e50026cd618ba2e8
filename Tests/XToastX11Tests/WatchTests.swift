import Foundation
import Testing
import XToastSystem

/// `xtoast --watch` (issue #29), a bar's live stream, on a private Xvfb (a pause on the shared
/// display would hold the other suites' toasts) and a private bus whose service keeps the
/// notifications in its own `XDG_RUNTIME_DIR`: the lines it prints, each read from its pipe as
/// it comes.
@Suite("Watch", .serialized)
struct WatchTests {
    static let idle = #"{"count":0,"unread":0,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#

    /// The lines a watch prints, read from its standard output as they come.
    final class Lines {
        private let descriptor: Int32
        private var pending: [UInt8] = []

        init(_ descriptor: Int32) { self.descriptor = descriptor }

        /// The next line, waiting for it at most `timeout` seconds.
        func next(timeout: Double = 20) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    defer { pending.removeFirst(end + 1) }
                    return String(decoding: pending[..<end], as: UTF8.self)
                }
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
                guard poll(&entry, 1, left) > 0 else { throw TestFailure("no line within \(timeout) s (so far: \(pending))") }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { throw TestFailure("the watch's output ended") }
                pending += buffer[0..<count]
            }
        }

        func close() { Glibc.close(descriptor) }
    }

    /// Starts `xtoast --watch` on `display` with the bus's runtime folder, its output a pipe.
    static func watch(_ display: String, _ bus: PrivateBus) throws -> (XToastProcess, Lines) {
        // Close-on-exec: no other process holds the reading end, so closing ours is the reader going.
        let ends = try XToastSystem.Pipe()
        let watch = try XToastProcess(
            ["--watch"], display: display, environment: ["XDG_RUNTIME_DIR": bus.folder], stdoutDescriptor: ends.write)
        close(ends.write)
        return (watch, Lines(ends.read))
    }

    /// A pause and its end, a notification shown and kept after its toast, then dismissed: a
    /// line for each change, and nothing else. The runtime folder has no `xtoast` folder when
    /// the watch starts: the first notification kept makes it.
    @Test func aLinePerChangeOfThePauseTheToastsAndTheKeptNotifications() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let config = temporaryPath("-config")
        try FileManager.default.createDirectory(atPath: config + "/xtoast", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: config) }
        try OnScreen.NotificationPersistence.quickRule(0.3).write(toFile: config + "/xtoast/config", atomically: true, encoding: .utf8)
        let bus = try PrivateBus(display: server.name, environment: ["XDG_CONFIG_HOME": config])
        #expect(!FileManager.default.fileExists(atPath: bus.folder + "/xtoast"))
        let (watch, lines) = try Self.watch(server.name, bus)
        defer { lines.close() }
        let environment: [String: String?] = ["XDG_RUNTIME_DIR": bus.folder]
        #expect(try lines.next() == Self.idle)

        #expect(try XToastProcess.run(["--pause"], display: server.name).status == 0)
        #expect(try lines.next() == #"{"count":0,"unread":0,"paused":true,"until":null,"inhibited":false,"showing":0,"waiting":0}"#)
        #expect(try XToastProcess.run(["--resume"], display: server.name).status == 0)
        #expect(try lines.next() == Self.idle)

        // notify-send with the server's time: kept after its toast (the rule makes it 0.3 s).
        let id = try bus.run(["notify-send", "-p", "-a", "keeper", "Build finished"]).trimmingCharacters(in: .whitespacesAndNewlines)
        var seen = [try lines.next()]
        // Whether the watch read the queue before the toast's first frame was out is a race of
        // two processes: the line saying it waits may come or not.
        if seen[0] == #"{"count":0,"unread":0,"paused":false,"inhibited":false,"showing":0,"waiting":1}"# { seen = [try lines.next()] }
        #expect(seen[0] == #"{"count":0,"unread":0,"paused":false,"inhibited":false,"showing":1,"waiting":0}"#)
        #expect(try lines.next() == Self.idle)
        #expect(try lines.next() == #"{"count":1,"unread":1,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)
        #expect(watcher.mappedToasts().isEmpty)
        // Listed into a pipe, it stays unread; listed on a terminal, it has been read.
        #expect(try XToastProcess.run(["--list"], display: server.name, environment: environment).stdout.contains("keeper: Build finished"))
        let terminal = try Child(
            ["script", "-qec", "\(try xtoastBinary()) --list", "/dev/null"],
            environment: environment.merging(["DISPLAY": server.name]) { $1 })
        #expect(terminal.wait(timeout: 20) == 0)
        #expect(try lines.next() == #"{"count":1,"unread":0,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)

        let dismissed = try bus.start([try xtoastBinary(), "--dismiss", "--notification", id]).result(timeout: 30)
        #expect(dismissed.status == 0, "\(dismissed)")
        #expect(try lines.next() == Self.idle)

        // The reader goes: the watch ends at once, quietly, with status 0.
        lines.close()
        let ended = try watch.wait(timeout: 10)
        #expect(ended.status == 0 && ended.stderr.isEmpty, "\(ended.stderr)")
    }

    /// A timed pause ends by itself: the line comes at its end, with no xtoast running.
    @Test func aTimedPauseEndsWithALineAtItsEnd() throws {
        let server = try PrivateXServer()
        let bus = try PrivateBus(display: server.name)
        let (watch, lines) = try Self.watch(server.name, bus)
        defer { lines.close() }
        #expect(try lines.next() == Self.idle)
        #expect(try XToastProcess.run(["--pause", "1"], display: server.name).status == 0)
        let paused = try lines.next()
        let (head, tail) = (#"{"count":0,"unread":0,"paused":true,"until":"#, #","inhibited":false,"showing":0,"waiting":0}"#)
        #expect(paused.hasPrefix(head) && paused.hasSuffix(tail), "\(paused)")
        let until = try #require(Double(paused.dropFirst(head.count).dropLast(tail.count)), "\(paused)")
        #expect(try lines.next(timeout: 5) == Self.idle)
        #expect(Date().timeIntervalSince1970 >= until)
        #expect(watch.child.isRunning)
    }

    /// The X server going away ends the watch with one line and status 1.
    @Test func theServerGoingAwayIsOneLine() throws {
        let server = try PrivateXServer()
        let bus = try PrivateBus(display: server.name)
        let (watch, lines) = try Self.watch(server.name, bus)
        defer { lines.close() }
        #expect(try lines.next() == Self.idle)
        server.xvfb.stop(with: SIGKILL)
        let result = try watch.wait(timeout: 10)
        #expect(result.status == 1)
        #expect(result.stderr == "xtoast: lost the connection to the X server\n")
    }
}
