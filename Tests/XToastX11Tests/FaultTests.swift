import CX11
import Foundation
import Testing

/// Faults and bad input, the promise of docs/manual.md, "Exit status": every case ends with its
/// documented status and one line, leaves no window, and the next process's toast still shows.
extension OnScreen {
    @Suite struct Faults {
        // MARK: Bad input on a live display

        @Test(arguments: badOptionValues.map { ($0.0 + ["Hello"], $0.1) } + blankMessages.map { ([$0], "empty message") })
        func usageErrorsOnALiveDisplay(arguments: [String], message: String) throws {
            let (display, watcher) = try prepareSharedDisplay()
            let result = try XToastProcess.run(arguments, display: display)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("xtoast: " + message), "\(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "not one line: \(result.stderr)")
            try expectOthersStillShow(display, watcher)
        }

        @Test func anUnknownMonitorIsOneLineAndQueuesNothing() throws {
            let (display, watcher) = try prepareSharedDisplay()
            for monitor in ["HDMI-9", "7", "-1"] {
                let result = try XToastProcess.run(["--monitor", monitor, "Hello"], display: display)
                #expect(result.status == 1, "--monitor \(monitor)")
                #expect(result.stderr.hasPrefix("xtoast: no monitor \"\(monitor)\""), "\(result.stderr)")
            }
            #expect(watcher.liveTickets("_XTOAST_QUEUE").isEmpty)
            try expectOthersStillShow(display, watcher)
        }

        @Test(arguments: ["missing", "empty", "truncated", "not an image", "a directory"])
        func aBadIconFileIsOneLine(kind: String) throws {
            let (display, watcher) = try prepareSharedDisplay()
            let folder = temporaryPath("-icons")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            var path = folder + "/icon.png"
            switch kind {
            case "empty": FileManager.default.createFile(atPath: path, contents: Data())
            case "truncated":
                let full = try Data(contentsOf: URL(fileURLWithPath: try repositoryFile("Resources/toast.png")))
                FileManager.default.createFile(atPath: path, contents: full.prefix(full.count / 3))
            case "not an image": FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\necho hi\n".utf8))
            case "a directory": path = folder
            default: break
            }
            let result = try XToastProcess.run(["--icon", path, "Hello"], display: display)
            #expect(result.status == 1, "\(kind): \(result.stderr)")
            #expect(result.stderr.hasPrefix("xtoast: "), "\(result.stderr)")
            #expect(result.stderr.contains(path), "the line does not name the file: \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "not one line: \(result.stderr)")
            try expectOthersStillShow(display, watcher)
        }

        @Test func invalidUTF8InAnArgumentShowsWithOneWarning() throws {
            let (display, watcher) = try prepareSharedDisplay()
            // Swift strings cannot hold invalid UTF-8: the shell puts the raw bytes in argv.
            let toast = try XToastProcess(
                ["--duration", "0.1", "--fade-in", "0", "--fade-out", "0", "bad \u{1}"], display: display,
                viaShell: #"exec "$0" "$@" "$(printf 'caf\351 \377\376')""#)
            let window = try #require(try watcher.waitForToasts().first)
            try watcher.waitForDestroy(window)
            let result = try toast.wait()
            #expect(result.status == 0)
            #expect(result.stderr == "xtoast: warning: the message is not valid UTF-8; invalid bytes are shown as \u{FFFD}\n")
            try expectOthersStillShow(display, watcher)
        }

        @Test func aMegabyteOnStandardInputAndHugeArgumentsAreCut() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let megabyte = Data(repeating: UInt8(ascii: "x"), count: 1 << 20) + Data(" and more\n".utf8)
            let fromInput = try XToastProcess(
                ["--duration", "0.1", "--fade-in", "0", "--fade-out", "0", "-"], display: display, stdin: megabyte)
            let first = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(first))
            #expect(frame.width <= 1920 && frame.height <= 1080, "the box is \(frame)")
            try watcher.waitForDestroy(first)
            #expect(try fromInput.wait().status == 0)

            // The kernel allows 128 KiB an argument: use most of it, one word a thousand times.
            let words = (0..<1000).map { _ in String(repeating: "word", count: 30) }
            let fromArguments = try XToastProcess(["--duration", "0.1", "--fade-in", "0", "--fade-out", "0"] + words, display: display)
            let second = try #require(try watcher.waitForToasts().first)
            try watcher.waitForDestroy(second)
            #expect(try fromArguments.wait().status == 0)
            try expectOthersStillShow(display, watcher)
        }

        @Test func markupIsNotInterpretedWithoutMarkup() throws {
            let (display, watcher) = try prepareSharedDisplay()
            func height(_ arguments: [String]) throws -> (Int, String) {
                let toast = try XToastProcess(["--duration", "sticky"] + arguments, display: display)
                let window = try #require(try watcher.waitForToasts().first)
                let height = try #require(watcher.geometry(window)?.height)
                toast.signal(SIGUSR1)
                try watcher.waitForDestroy(window)
                let result = try toast.wait()
                #expect(result.status == 0)
                return (height, result.stderr)
            }
            let injected = #"<span size="80000">BIG</span><b>"#
            let (plain, plainErrors) = try height([injected])
            let (interpreted, _) = try height(["--markup", #"<span size="80000">BIG</span>"#])
            #expect(plain < 80 && interpreted > 2 * plain, "plain \(plain) px, with --markup \(interpreted) px")
            #expect(plainErrors.isEmpty, "plain text is not parsed, so nothing to warn about: \(plainErrors)")
            try expectOthersStillShow(display, watcher)
        }

        // MARK: The display

        /// The line says why: nothing listens there, or the name is not a display's.
        @Test(arguments: [nil, "", "nonsense", ":abc", ":99999", "127.0.0.1:12345.0", "/nonexistent/socket:0"])
        func aDisplayThatIsNotThereIsOneLine(name: String?) throws {
            let started = Date()
            let result = try XToastProcess.run(["Hello"], display: name, timeout: 10)
            #expect(result.status == 1)
            if let name, !name.isEmpty {
                let reason =
                    name.hasSuffix(":99999") || name.hasPrefix("127.")
                    ? "connection refused" : "not a display name ([host]:number[.screen])"
                #expect(result.stderr == "xtoast: cannot open display \"\(name)\": \(reason)\n")
            } else {
                #expect(result.stderr.hasPrefix("xtoast: no display: DISPLAY is not set"), "\(result.stderr)")
            }
            #expect(Date().timeIntervalSince(started) < 5, "took \(Date().timeIntervalSince(started)) s")
        }

        @Test func theServerDyingWhileWaitingOrScheduledIsOneLine() throws {
            let server = try PrivateXServer()
            var waiting: [XToastProcess] = []
            do {
                let watcher = try XWatcher(display: server.name)
                let blocker = try XToastProcess(["--duration", "sticky", "Blocking"], display: server.name)
                _ = try watcher.waitForToasts()
                waiting.append(try XToastProcess(["Waiting"], display: server.name))
                try waitForQueue(watcher, length: 2)
                waiting.append(try XToastProcess(["--in", "1h", "Scheduled"], display: server.name))
                try waitForList(watcher, "_XTOAST_SCHEDULED", length: 1)
                waiting.append(blocker)
            }
            server.xvfb.stop(with: SIGKILL)
            for toast in waiting {
                let result = try toast.wait(timeout: 10)
                #expect(result.status == 1)
                #expect(result.stderr == "xtoast: lost the connection to the X server\n")
            }
        }

        // MARK: The compositor

        @Test func theCompositorKilledAndRestartedMidToast() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            try server.startCompositor(watcher: watcher)
            let toast = try XToastProcess(
                ["--fade-in", "0.3", "--duration", "3", "--fade-out", "0.3", "--position", "center", "Survives"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            XShapeSelectInput(watcher.display, window, UInt(ShapeNotifyMask))
            XSync(watcher.display, 0)

            // Killed: it cannot hand over the selection; the server tells xtoast when picom's
            // connection closes, and the toast goes on shaped and opaque.
            server.compositor?.signal(SIGKILL)
            try watcher.waitForCompositor(running: false)
            try waitForShapeChange(watcher, window) { watcher.boundingShape(window).count > 1 }
            let plainInset = watcher.topRowInset(window)
            let frame = try #require(watcher.geometry(window))
            let opaque = try Screenshot(display: server.name).pixel(frame.x + 3, frame.y + frame.height / 2)
            #expect(opaque.r == 0 && opaque.g == 0 && opaque.b == 0, "the box is not opaque black: \(opaque)")

            try server.startCompositor(watcher: watcher)
            // Else still cut to 1-bit corners under the new compositor.
            try waitForShapeChange(watcher, window) { watcher.topRowInset(window) < plainInset }
            try watcher.waitForDestroy(window)
            let result = try toast.wait()
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(watcher.mappedToasts().isEmpty)
            try expectOthersStillShow(server.name, watcher)
        }

        // MARK: A full disk

        /// With every write failing (`ulimit -f 0`, as on a full disk) and fresh home, state,
        /// cache and temporary folders, xtoast shows its toast and exits 0; the history it could
        /// not record is one warning line, and nothing else is written anywhere.
        @Test func aFullDiskHasNoEffect() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let home = temporaryPath("-home")
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: home) }
            let toast = try XToastProcess(
                ["--duration", "0.1", "--fade-in", "0", "--fade-out", "0", "--print-outcome", "Disk full"], display: display,
                environment: [
                    "HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache",
                    "XDG_CONFIG_HOME": home + "/config", "TMPDIR": home,
                ],
                // The limit applies to xtoast alone; its output comes out through a pipe.
                viaShell: #"out=$( (ulimit -f 0; trap '' XFSZ; exec "$0" "$@") 2>&1; echo "exit $?" ); printf '%s\n' "$out""#)
            let window = try #require(try watcher.waitForToasts().first)
            try watcher.waitForDestroy(window)
            // Its standard output and error together: one warning, the outcome and its status.
            let lines = try toast.wait().stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 4, "\(lines)")
            #expect(lines.first?.hasPrefix("xtoast: warning: cannot record the toast in the history") == true)
            #expect(lines.dropFirst() == ["expired", "exit 0", ""])
            #expect(try FileManager.default.contentsOfDirectory(atPath: home) == ["state"], "xtoast wrote elsewhere in its home")
            let history = try FileManager.default.attributesOfItem(atPath: home + "/state/xtoast/history")
            #expect(history[.size] as? Int == 0, "a partial line in the history")
            try expectOthersStillShow(display, watcher)
        }
    }
}

// MARK: - Signals at each phase

/// Where in its life a toast is when the signal comes, and how the test gets it there.
enum Phase: String, CaseIterable, CustomTestStringConvertible {
    case graceOfRun, scheduled, waitingInQueue, fadingIn, holding, fadingOut
    var testDescription: String { rawValue }

    /// Arguments that reach the phase and, left alone, end the toast within about a second.
    func arguments(message: String) -> [String] {
        switch self {
        case .graceOfRun: [message, "--run", "--", "sleep", "0.3"]
        case .scheduled: ["--in", "1s", "--fade-in", "0", "--duration", "0.2", "--fade-out", "0", message]
        case .waitingInQueue: ["--fade-in", "0", "--duration", "0.2", "--fade-out", "0", message]
        case .fadingIn: ["--fade-in", "0.6", "--duration", "0.2", "--fade-out", "0", message]
        case .holding: ["--fade-in", "0", "--duration", "0.6", "--fade-out", "0", message]
        case .fadingOut: ["--fade-in", "0", "--duration", "0", "--fade-out", "0.6", message]
        }
    }
}

enum Fault: String, CaseIterable, CustomTestStringConvertible {
    case sigterm, sigint, sigkill, stopAndContinue
    var testDescription: String { rawValue }
}

extension OnScreen.Faults {
    /// What each signal does in each phase is the session machine's table, tested on its virtual
    /// clock (`SessionTests`). Here, what only a real process and server show: SIGKILL (nothing
    /// left behind, the queue goes on) and a stop longer than the toast's life, in every phase;
    /// a terminating signal and Ctrl-C end to end once each.
    static let signalCases: [(Phase, Fault)] =
        Phase.allCases.flatMap { [($0, Fault.sigkill), ($0, .stopAndContinue)] } + [(.holding, .sigterm), (.graceOfRun, .sigint)]

    @Test(arguments: signalCases)
    func aSignalAtEachPhase(phase: Phase, fault: Fault) throws {
        let (display, watcher) = try prepareSharedDisplay()
        var blocker: XToastProcess?
        if phase == .waitingInQueue {
            blocker = try XToastProcess(["--duration", "sticky", "Ahead in the queue"], display: display)
            _ = try watcher.waitForToasts()
        }
        let toast = try XToastProcess(phase.arguments(message: "Phase \(phase)"), display: display)
        var window: Window?
        var command: pid_t?
        switch phase {
        case .graceOfRun: command = try waitForChild(of: toast.child.pid)
        case .scheduled: try waitForList(watcher, "_XTOAST_SCHEDULED", length: 1)
        case .waitingInQueue: try waitForQueue(watcher, length: 2)
        case .fadingIn, .holding, .fadingOut: window = try watcher.waitForToasts().first
        }

        switch fault {
        case .sigterm, .sigint, .sigkill:
            let number = [Fault.sigterm: SIGTERM, .sigint: SIGINT, .sigkill: SIGKILL][fault]!
            toast.signal(number)
            if let window { try watcher.waitForDestroy(window, timeout: 5) }
            let result = try toast.wait(timeout: 5)
            #expect(result.status == 128 + number)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            if window == nil {
                // Ended before its turn: it never shows (with --run, not even the command's end).
                #expect(watcher.overrideRedirectMaps() == 0, "a toast showed after \(fault)")
            }
            // A killed xtoast cannot pass SIGKILL on; the command is the caller's to stop.
            if fault == .sigkill, let command { kill(command, SIGKILL) }
        case .stopAndContinue:
            toast.signal(SIGSTOP)
            // Stopped for longer than the toast would have lived, the turn (when it waited)
            // comes while it cannot answer.
            blocker?.signal(SIGUSR1)
            usleep(1_200_000)
            toast.signal(SIGCONT)
            // It picks up where the clock says it is: whatever is left of its life, then gone.
            let result = try toast.wait(timeout: phase == .graceOfRun ? 5 : 3)
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }
        if let blocker {
            blocker.signal(SIGUSR1)
            #expect(try blocker.wait().status == 0)
        }
        try expectOthersStillShow(display, watcher)
    }

    /// Fifty processes at once, a third of them killed at random moments (SIGKILL, SIGTERM,
    /// SIGINT): every survivor shows, one at a time, and ends normally.
    @Test func fiftyProcessesWithRandomKills() throws {
        let (display, watcher) = try prepareSharedDisplay()
        var generator = SystemRandomNumberGenerator()
        let toasts = try (0..<50).map { i in
            // Long enough for the watcher to read each window's owner before it goes.
            try XToastProcess(["--fade-in", "0", "--duration", "0.15", "--fade-out", "0", "Toast \(i)"], display: display)
        }
        let victims = Array(toasts.shuffled(using: &generator).prefix(17))
        // Each victim gets a random signal at a random moment of the first second.
        let started = Date()
        var kills = victims.map { victim in
            (victim, [SIGKILL, SIGTERM, SIGINT].randomElement(using: &generator)!, Double.random(in: 0...1, using: &generator))
        }
        // Record maps and destroys while the processes run. A window's owner is read when it
        // maps; on a busy machine a toast may be gone by then (nil): it still counts as shown.
        var shownBy: [Window: pid_t?] = [:]
        var events: [(pid: pid_t?, mapped: Bool)] = []
        var statuses: [pid_t: Int32] = [:]
        let deadline = Date().addingTimeInterval(60)
        while statuses.count < toasts.count || XPending(watcher.display) > 0 {
            guard Date() < deadline else { throw TestFailure("\(toasts.count - statuses.count) processes still running after 60 s") }
            if let event = watcher.nextEvent(timeout: 0.05) {
                if event.type == MapNotify, event.xmap.override_redirect != 0 {
                    let pid = watcher.pid(event.xmap.window)
                    shownBy[event.xmap.window] = pid
                    events.append((pid, true))
                } else if event.type == DestroyNotify, let pid = shownBy.removeValue(forKey: event.xdestroywindow.window) {
                    events.append((pid, false))
                }
            }
            let now = Date().timeIntervalSince(started)
            for (victim, signal, _) in kills.filter({ $0.2 <= now }) { victim.signal(signal) }
            kills.removeAll { $0.2 <= now }
            // Process exits are not X events: look between them.
            for toast in toasts where statuses[toast.child.pid] == nil {
                if let status = toast.child.wait(timeout: 0) { statuses[toast.child.pid] = status }
            }
        }
        let victimPIDs = Set(victims.map(\.child.pid))
        for toast in toasts where !victimPIDs.contains(toast.child.pid) {
            #expect(statuses[toast.child.pid] == 0, "a toast nobody killed ended with \(statuses[toast.child.pid]!)")
        }
        for victim in victims {
            // A victim may have ended before its signal arrived.
            #expect([0, 128 + SIGKILL, 128 + SIGTERM, 128 + SIGINT].contains(statuses[victim.child.pid]!))
        }
        let survivors = toasts.map(\.child.pid).filter { statuses[$0] == 0 }
        let maps = events.filter(\.mapped)
        let owners = maps.compactMap(\.pid)
        let unseen = Set(survivors).subtracting(owners)
        #expect(unseen.count <= maps.count - owners.count, "\(unseen.count) surviving toasts never showed")
        #expect(Set(owners).count == owners.count, "a toast showed twice")
        #expect(events.map(\.mapped) == Array(repeating: [true, false], count: maps.count).flatMap { $0 }, "two toasts at once")
        try expectOthersStillShow(display, watcher)
    }
}

// MARK: - Helpers

/// What every fault case checks afterwards: no xtoast window is left on screen, and another
/// process's toast still gets its turn at once, shows and ends normally.
func expectOthersStillShow(_ display: String, _ watcher: XWatcher, sourceLocation: SourceLocation = #_sourceLocation) throws {
    watcher.discardEvents()
    #expect(watcher.mappedToasts().isEmpty, "a toast window was left on screen", sourceLocation: sourceLocation)
    let next = try XToastProcess(["--fade-in", "0", "--duration", "0.05", "--fade-out", "0", "Still here"], display: display)
    let window = try #require(try watcher.waitForToasts(timeout: 5).first, sourceLocation: sourceLocation)
    #expect(watcher.pid(window) == next.child.pid, "another toast showed", sourceLocation: sourceLocation)
    try watcher.waitForDestroy(window)
    #expect(try next.wait().status == 0, sourceLocation: sourceLocation)
}

/// Waits for `parent` to have started a child process (`--run`'s command); returns its pid.
func waitForChild(of parent: pid_t, timeout: Double = 10) throws -> pid_t {
    // A process starting a child is not an X event; /proc is polled.
    try waitForValue("a command started by process \(parent)", timeout: timeout) {
        let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }
}

/// A file of this repository (the tests run from its root).
func repositoryFile(_ path: String) throws -> String {
    var folder = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { folder.deleteLastPathComponent() }
    let file = folder.appendingPathComponent(path).path
    guard FileManager.default.fileExists(atPath: file) else { throw TestFailure("no \(file)") }
    return file
}

extension XWatcher {
    /// How many override-redirect windows were mapped in the events received so far (which
    /// it uses up): toasts, even those gone before their class could be read.
    func overrideRedirectMaps() -> Int {
        XSync(display, 0)
        var count = 0
        var event = XEvent()
        while XPending(display) > 0 {
            XNextEvent(display, &event)
            if event.type == MapNotify && event.xmap.override_redirect != 0 { count += 1 }
        }
        return count
    }

    /// Drops the events received so far, so that the next wait sees only what follows.
    func discardEvents() {
        XSync(display, 0)
        var event = XEvent()
        while XPending(display) > 0 { XNextEvent(display, &event) }
    }
}
