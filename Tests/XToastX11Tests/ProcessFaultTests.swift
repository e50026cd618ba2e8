import CX11
import Foundation
import Testing

/// Faults of the process's surroundings: closed standard descriptors, output that cannot be
/// written, a small stack. Same promise as the rest of the fault suite.
extension OnScreen.Faults {
    /// A descriptor the caller closed is not taken by the X connection: `-b` with standard
    /// input closed still shows its toast, and a warning with standard error closed does not
    /// go into the X protocol.
    @Test(arguments: [
        (["-b", "Input closed"], "<&-"),
        (["--markup", "<b>Error closed"], "2>&-"),
    ])
    func aClosedStandardDescriptorIsNotTheConnection(arguments: [String], redirection: String) throws {
        let (display, watcher) = try prepareSharedDisplay()
        let toast = try XToastProcess(
            ["--fade-in", "0", "--duration", "0.2", "--fade-out", "0"] + arguments, display: display,
            viaShell: #"exec "$0" "$@" "# + redirection)
        let window = try #require(try watcher.waitForToasts().first, "no toast with \(redirection)")
        try watcher.waitForDestroy(window)
        #expect(try toast.wait().status == 0)
        try expectOthersStillShow(display, watcher)
    }

    /// Output that is lost is one line and status 1: a full disk, a closed descriptor, a reader
    /// that went away (no silent death by SIGPIPE, no status 0).
    @Test(arguments: ["full disk", "closed", "reader gone"])
    func outputThatCannotBeWrittenIsOneLine(kind: String) throws {
        let result: XToastProcess.Result
        let reason: String
        switch kind {
        case "full disk":
            result = try XToastProcess(["--version"], display: nil, viaShell: #"exec "$0" "$@" >/dev/full"#).wait()
            reason = "no space left on device"
        case "closed":
            // The outcome, at the end of a toast shown with standard output closed.
            let (display, watcher) = try prepareSharedDisplay()
            let toast = try XToastProcess(
                ["--fade-in", "0", "--duration", "0.1", "--fade-out", "0", "--print-outcome", "Output closed"], display: display,
                viaShell: #"exec "$0" "$@" >&-"#)
            let window = try #require(try watcher.waitForToasts().first)
            try watcher.waitForDestroy(window)
            result = try toast.wait()
            reason = "bad file descriptor"
            try expectOthersStillShow(display, watcher)
        default:
            // A pipe whose reader has closed it before xtoast starts (`xtoast --help | true`,
            // without the race), with the default SIGPIPE action.
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw TestFailure("cannot make a pipe") }
            close(ends[0])
            defer { close(ends[1]) }
            result = try XToastProcess(["--help"], display: nil, stdoutDescriptor: ends[1]).wait()
            reason = "broken pipe"
        }
        #expect(result.status == 1, "\(kind): status \(result.status)")
        #expect(result.stderr == "xtoast: cannot write to standard output: \(reason)\n", "\(kind)")
    }
}

extension OnScreen.Faults {
    /// Standard output that the caller made non-blocking (as some runtimes do with their pipes)
    /// and a reader slower than xtoast: everything arrives, nothing is dropped at EAGAIN.
    @Test func aNonBlockingPipeGetsTheWholeOutput() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TestFailure("cannot make a pipe") }
        defer { close(ends[0]) }
        // The smallest pipe (one page), so that the manual page does not fit at once.
        _ = fcntl(ends[1], 1031 /* F_SETPIPE_SZ, a GNU name Swift does not see */, 4096)
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        let toast = try XToastProcess(["--generate-manual"], display: nil, stdoutDescriptor: ends[1])
        close(ends[1])
        // Read only once xtoast has filled the pipe (a write would now be EAGAIN), then to the end.
        // The pipe's fill is no event to wait on: it is polled.
        try waitUntil("the pipe filled") {
            var queued: Int32 = 0
            return ioctl(ends[0], UInt(FIONREAD), &queued) == 0 && queued == 4096
        }
        var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard poll(&descriptor, 1, 1000) > 0 else { continue }
            let count = read(ends[0], &buffer, buffer.count)
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
        }
        let result = try toast.wait()
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let expected = try XToastProcess.run(["--generate-manual"], display: nil).stdout
        #expect(received.count > 4096 && String(decoding: received, as: UTF8.self) == expected, "got \(received.count) bytes")
    }

    /// A stack limit too small to draw with (`ulimit -s 64`; fontconfig and FreeType need more)
    /// does not end in SIGSEGV: a soft limit is raised (`ulimit -S -s 64`), and with a hard one
    /// the program runs on a stack of its own. The toast shows either way.
    @Test(arguments: ["-s", "-S -s"])
    func aSmallStackLimitStillShows(limit: String) throws {
        let (display, watcher) = try prepareSharedDisplay()
        let toast = try XToastProcess(
            ["--fade-in", "0", "--duration", "0.2", "--fade-out", "0", "--icon", "info", "--title", "Stack", "--print-outcome", "漢字 ✓"],
            display: display, viaShell: "ulimit -H -s unlimited 2>/dev/null; ulimit \(limit) 64 && exec \"$0\" \"$@\"")
        let window = try #require(try watcher.waitForToasts().first)
        try watcher.waitForDestroy(window)
        let result = try toast.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "expired\n")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        try expectOthersStillShow(display, watcher)
    }
}
