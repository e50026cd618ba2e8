import CX11
import Foundation
import Testing

/// Faults of the X connection: a server that never answers or stops answering, one that turns
/// clients away. Same promise as the rest of the fault suite; `-b` never holds its caller.
extension OnScreen.Faults {
    /// A port that accepts connections and says nothing, and a stopped X server: `xtoast` and
    /// `xtoast -b` give up after the timeout with one line, instead of waiting for ever.
    @Test func aDisplayThatNeverAnswersIsOneLine() throws {
        let listener = try SilentListener()
        let server = try PrivateXServer()
        server.xvfb.signal(SIGSTOP)
        defer { server.xvfb.signal(SIGCONT) }
        let started = Date()
        let cases = [(listener.display, [String]()), (listener.display, ["-b"]), (server.name, []), (server.name, ["-b"])]
        // All at once: each waits out the same timeout.
        let toasts = try cases.map { display, options in try XToastProcess(options + ["Silence"], display: display) }
        for ((display, options), toast) in zip(cases, toasts) {
            let result = try toast.wait(timeout: 15)
            #expect(result.status == 1, "\(display) \(options)")
            #expect(result.stderr == "xtoast: display \"\(display)\" did not answer within 5 s\n", "\(options)")
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed > 4.5 && elapsed < 8, "took \(elapsed) s")
    }

    /// The server stopped while a toast is up: the round trips of its end are not answered,
    /// and it gives up after the timeout with one line. Once the server goes on, nothing of it
    /// is left and the next toast shows.
    @Test func aServerThatStopsMidToastIsOneLine() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let toast = try XToastProcess(["--fade-in", "0", "--duration", "0.5", "--fade-out", "0", "Stopped"], display: server.name)
        _ = try watcher.waitForToasts()
        server.xvfb.signal(SIGSTOP)
        let stopped = Date()
        let result: XToastProcess.Result
        do {
            // Before anything else talks to the server, failed or not (the watcher would wait).
            defer { server.xvfb.signal(SIGCONT) }
            result = try toast.wait(timeout: 15)
        }
        let elapsed = Date().timeIntervalSince(stopped)
        #expect(result.status == 1)
        #expect(result.stderr == "xtoast: display \"\(server.name)\" stopped answering: no reply within 5 s\n")
        #expect(elapsed > 4.5 && elapsed < 8, "took \(elapsed) s")
        try expectOthersStillShow(server.name, watcher)
    }

    /// Time xtoast itself spends stopped (Ctrl-Z, SIGSTOP) is not the server's silence, even
    /// when it was stopped in the middle of a round trip and the timeout passed meanwhile.
    @Test func beingStoppedWhileWaitingForTheServerIsNotItsSilence() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let toast = try XToastProcess(
            ["--fade-in", "0", "--duration", "0.3", "--fade-out", "0", "--print-outcome", "Stopped too"], display: server.name)
        _ = try watcher.waitForToasts()
        let result: XToastProcess.Result
        do {
            // The server stops: at its end (0.3 s) the toast waits for an answer, armed.
            server.xvfb.signal(SIGSTOP)
            defer { server.xvfb.signal(SIGCONT) }
            // Neither is an X event: the waits are margins of a second and more around the
            // toast's own timing, then past the 5 s timeout.
            usleep(1_500_000)
            toast.signal(SIGSTOP)
            usleep(5_500_000)
        }
        toast.signal(SIGCONT)
        result = try toast.wait(timeout: 10)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "expired\n")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        try expectOthersStillShow(server.name, watcher)
    }

    /// The timeout bounds waiting for answers only: a toast that holds, and one that waits its
    /// turn, for longer than it both end normally.
    @Test func holdingAndWaitingLongerThanTheTimeoutIsNormal() throws {
        let (display, watcher) = try prepareSharedDisplay()
        let holding = try XToastProcess(["--fade-in", "0", "--duration", "6", "--fade-out", "0", "Holding"], display: display)
        let first = try #require(try watcher.waitForToasts().first)
        let waiting = try XToastProcess(["--fade-in", "0", "--duration", "0.1", "--fade-out", "0", "Waiting"], display: display)
        try watcher.waitForDestroy(first)
        let second = try #require(try watcher.waitForToasts().first)
        #expect(watcher.pid(second) == waiting.child.pid)
        try watcher.waitForDestroy(second)
        for toast in [holding, waiting] {
            let result = try toast.wait()
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }
        try expectOthersStillShow(display, watcher)
    }

    /// A server that turns clients away (`-maxclients`) says why, and xtoast folds Xlib's own
    /// words into its one line, with and without `-b`.
    @Test func aServerWithTooManyClientsIsOneLineWithTheReason() throws {
        let server = try PrivateXServer(arguments: ["-maxclients", "64"])
        let watcher = try XWatcher(display: server.name)
        var clients: [OpaquePointer] = []
        defer { clients.forEach { XCloseDisplay($0) } }
        while clients.count < 256, let client = XOpenDisplay(server.name) { clients.append(client) }
        #expect(clients.count < 256, "the server took every client")
        for options in [[], ["-b"]] {
            let result = try XToastProcess.run(options + ["Full"], display: server.name)
            #expect(result.status == 1, "\(options)")
            #expect(result.stderr == "xtoast: cannot open display \"\(server.name)\": Maximum number of clients reached\n", "\(options)")
        }
        clients.forEach { XCloseDisplay($0) }
        clients.removeAll()
        try expectOthersStillShow(server.name, watcher)
    }
}

/// A TCP port on 127.0.0.1 in the X range (6000 + display) that accepts connections and never
/// says a word: the kernel completes the handshake for the backlog; nobody reads.
final class SilentListener {
    let descriptor: Int32
    /// `127.0.0.1:N`.
    let display: String

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("cannot make a socket") }
        self.descriptor = descriptor
        for number in 150..<250 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(6000 + number).bigEndian
            address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 && listen(descriptor, 16) == 0 {
                display = "127.0.0.1:\(number)"
                return
            }
        }
        close(descriptor)
        throw TestFailure("no free port in 6150..<6250")
    }

    deinit { close(descriptor) }
}
