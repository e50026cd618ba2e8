import CX11
import Foundation
import Testing
import XToastCore

/// Do not disturb without a daemon (`xtoast --pause`, `--resume`; docs/protocol.md), on a
/// private Xvfb: a pause on the shared display would hold the other suites' toasts.
@Suite("Do not disturb")
struct DoNotDisturbTests {
    static let quick = ["--duration", "0.3", "--fade-in", "0", "--fade-out", "0"]

    @Test func pausedToastsWaitAnUrgentOneShowsAndTheRestFollowInOrder() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let (environment, folder) = try replayingAfterQuiet()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paused = try XToastProcess.run(["--pause"], display: server.name)
        #expect(paused.status == 0 && paused.stdout.isEmpty && paused.stderr.isEmpty)
        #expect(watcher.longs(watcher.root, "_XTOAST_PAUSED", type: Atom(XA_CARDINAL)) == [0])

        let toasts = try (0..<3).map { i -> XToastProcess in
            let toast = try XToastProcess(Self.quick + ["Toast \(i)"], display: server.name, environment: environment)
            try waitForQueue(watcher, length: i + 1)
            return toast
        }
        // Each stands aside, marked on its ticket; nothing is on screen.
        try waitUntil("three held tickets") { watcher.queue().filter { watcher.ticketText($0).contains("pause=held") }.count == 3 }
        #expect(watcher.mappedToasts().isEmpty)

        // A progress bar goes through (a volume key's toast), past the three.
        let volume = try XToastProcess(Self.quick + ["--progress", "40", "Volume"], display: server.name)
        let window = try #require(try watcher.waitForToasts().first)
        #expect(watcher.pid(window) == volume.child.pid)
        #expect(try volume.wait().status == 0)
        #expect(toasts.allSatisfy { $0.child.isRunning })

        let resumed = try XToastProcess.run(["--resume"], display: server.name)
        #expect(resumed.status == 0 && resumed.stdout.isEmpty)
        #expect(watcher.longs(watcher.root, "_XTOAST_PAUSED", type: Atom(XA_CARDINAL)).isEmpty)
        let events = try watcher.recordToasts(timeout: 20) { $0.filter { !$0.mapped }.count == 3 }
        #expect(events.filter(\.mapped).map(\.pid) == toasts.map(\.child.pid))
        #expect(events.map(\.mapped) == [true, false, true, false, true, false])
        for toast in toasts { #expect(try toast.wait().status == 0) }
    }

    /// Issue #30's "no flood after quiet": twelve toasts held by a pause end as one summary,
    /// the first's, which says what came; the eleven others end at once, unseen; all twelve are
    /// in the history, and a click on the summary opens the centre.
    @Test func twelveToastsDuringAPauseEndAsOneSummary() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let folder = temporaryPath("-away")
        try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment: [String: String?] = ["XDG_CONFIG_HOME": folder, "XDG_STATE_HOME": folder + "/state"]
        #expect(try XToastProcess.run(["--pause"], display: server.name).status == 0)
        // Each in the queue before the next starts: the first is known.
        let toasts = try (0..<12).map { i in
            let toast = try XToastProcess(
                ["--print-outcome", "--app", i < 8 ? "Signal" : "Mail", "Message \(i)"], display: server.name, environment: environment)
            try waitForQueue(watcher, length: i + 1)
            return toast
        }
        try waitUntil("twelve held tickets") { watcher.queue().filter { watcher.ticketText($0).contains("pause=held") }.count == 12 }
        #expect(try XToastProcess.run(["--resume"], display: server.name).status == 0)

        let summary = try #require(try watcher.waitForToasts().first)
        #expect(watcher.pid(summary) == toasts[0].child.pid)
        for toast in toasts.dropFirst() {
            let ended = try toast.wait()
            #expect(ended.status == 0 && ended.stdout == "summarised\n", "\(ended)")
        }
        let listed = try XToastProcess.run(["--list"], display: server.name).stdout
        #expect(listed.contains("While you were away: 12") && listed.contains("Signal 8, Mail 4"), "\(listed)")
        #expect(watcher.mappedToasts() == [summary], "one toast, not a replay")

        // A click from the keyboard on it: it ends, and the centre opens on the display.
        #expect(try XToastProcess.run(["--press"], display: server.name, environment: environment).status == 0)
        #expect(try toasts[0].wait().stdout == "summarised\n")
        let center = try waitForValue("the centre opens", timeout: 20) { () -> Window? in
            watcher.stackingOrder().first { watcher.classHint($0)?.name == "xtoast-center" }
        }
        let history = try XToastProcess.run(["--history"], display: nil, environment: environment).stdout
        #expect(history.split(separator: "\n").filter { $0.contains("summarised") }.count == 12, "\(history)")
        #expect(try XToastProcess.run(["--center"], display: server.name, environment: environment).status == 0)
        _ = try watcher.waitForDestroy(center)
    }

    @Test func aTimedPauseEndsByItselfWithNobodyRunning() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let started = Date()
        #expect(try XToastProcess.run(["--pause", "2s"], display: server.name).status == 0)
        #expect(Date().timeIntervalSince(started) < 1.5, "--pause returns at once")
        let end = try #require(watcher.longs(watcher.root, "_XTOAST_PAUSED", type: Atom(XA_CARDINAL)).first)
        let endDate = Date(timeIntervalSince1970: Double(end))
        #expect(endDate.timeIntervalSince(started) >= 1.9 && endDate.timeIntervalSince(started) <= 3.1)

        // Started during the pause: it shows when the pause ends, by its own timer.
        let during = try XToastProcess(Self.quick + ["During"], display: server.name)
        try waitUntil("a held ticket") { watcher.queue().contains { watcher.ticketText($0).contains("pause=held") } }
        #expect(watcher.mappedToasts().isEmpty)
        let window = try #require(try watcher.waitForToasts(timeout: 6).first)
        let shownAt = Date()
        #expect(watcher.pid(window) == during.child.pid)
        #expect(
            shownAt.timeIntervalSince(endDate) > -0.05 && shownAt.timeIntervalSince(endDate) < 1,
            "shown \(shownAt.timeIntervalSince(endDate)) s after the end")
        #expect(try during.wait().status == 0)

        // A second pause, with nobody running through its end: the next toast shows at once.
        #expect(try XToastProcess.run(["--pause", "1s"], display: server.name).status == 0)
        let secondEnd = try #require(watcher.longs(watcher.root, "_XTOAST_PAUSED", type: Atom(XA_CARDINAL)).first)
        // The thing under test is time passing with no xtoast alive.
        while Date().timeIntervalSince1970 < Double(secondEnd) + 0.1 { usleep(50_000) }
        let after = try XToastProcess(Self.quick + ["After"], display: server.name)
        let startedAfter = Date()
        let afterWindow = try #require(try watcher.waitForToasts(timeout: 5).first)
        #expect(Date().timeIntervalSince(startedAfter) < 1)
        #expect(watcher.pid(afterWindow) == after.child.pid)
        #expect(try after.wait().status == 0)
    }

    @Test func garbageInThePausePropertyPausesNothing() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let farAhead = UInt32(Date().timeIntervalSince1970 + 10 * 366 * 86_400)
        let values: [(type: Atom, format: Int32, bytes: [UInt8], count: Int)] = [
            (Atom(XA_STRING), 8, Array("0".utf8), 1),
            (Atom(XA_CARDINAL), 8, [0], 1),
            (Atom(XA_CARDINAL), 32, longBytes([0, 0]), 2),
            (Atom(XA_CARDINAL), 32, longBytes([UInt(farAhead)]), 1),
            (Atom(XA_CARDINAL), 32, [], 0),
        ]
        for value in values {
            watcher.setRootProperty("_XTOAST_PAUSED", type: value.type, format: value.format, bytes: value.bytes, count: value.count)
            let toast = try XToastProcess(Self.quick + ["Shown"], display: server.name)
            let window = try #require(try watcher.waitForToasts(timeout: 5).first)
            #expect(watcher.pid(window) == toast.child.pid)
            let result = try toast.wait()
            #expect(result.status == 0 && result.stderr.isEmpty)
        }
    }

    @Test func dismissClosesTheUrgentToastOnScreenNotTheHeldOne() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        #expect(try XToastProcess.run(["--pause"], display: server.name).status == 0)
        let held = try XToastProcess(["--duration", "sticky", "--print-outcome", "Held"], display: server.name)
        try waitUntil("a held ticket") { watcher.queue().contains { watcher.ticketText($0).contains("pause=held") } }
        let urgent = try XToastProcess(["--urgent", "--duration", "sticky", "--print-outcome", "Urgent"], display: server.name)
        _ = try watcher.waitForToasts()
        #expect(try XToastProcess.run(["--dismiss"], display: server.name).status == 0)
        #expect(try urgent.wait().stdout == "dismissed\n")
        #expect(held.child.isRunning)
        #expect(try XToastProcess.run(["--dismiss-all"], display: server.name).status == 0)
        #expect(try held.wait().stdout == "dismissed\n")
    }

    /// A stacked toast is held by a pause as a queued one is (an urgent one goes through), and
    /// shows when the pause ends.
    @Test func aPauseHoldsStackedToasts() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        #expect(try XToastProcess.run(["--pause"], display: server.name).status == 0)
        let stacked = try XToastProcess(Self.quick + ["--stack", "--print-outcome", "Stacked"], display: server.name)
        try waitUntil("a held stacked ticket") {
            watcher.list("_XTOAST_STACK").contains { watcher.ticketText($0).contains("pause=held") }
        }
        #expect(watcher.mappedToasts().isEmpty)
        let urgent = try XToastProcess(Self.quick + ["--stack", "--urgent", "Urgent"], display: server.name)
        let window = try #require(try watcher.waitForToasts().first)
        #expect(watcher.pid(window) == urgent.child.pid)
        #expect(try urgent.wait().status == 0)
        #expect(stacked.child.isRunning)
        #expect(try XToastProcess.run(["--resume"], display: server.name).status == 0)
        let shown = try #require(try watcher.waitForToasts().first)
        #expect(watcher.pid(shown) == stacked.child.pid)
        #expect(try stacked.wait().stdout == "expired\n")
    }

    /// Another client's window, listed behind a held toast with a ticket that says it goes
    /// through the pause, and that never shows or ends: after `--resume` the held toast waits
    /// for it at most the grace a real one has to be drawn, not until that client leaves.
    @Test func aForgedPasserDoesNotHoldTheQueue() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        #expect(try XToastProcess.run(["--pause"], display: server.name).status == 0)
        let held = try XToastProcess(Self.quick + ["--print-outcome", "Held"], display: server.name)
        try waitUntil("a held ticket") { watcher.queue().contains { watcher.ticketText($0).contains("pause=held") } }
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        let forged = XCreateWindow(
            watcher.display, watcher.root, 0, 0, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect), &attributes)
        let text = Array("v=1\npid=4242\npause=through\n".utf8)
        XChangeProperty(
            watcher.display, forged, watcher.atom("_XTOAST_TICKET"), watcher.atom("UTF8_STRING"), 8, PropModeReplace, text,
            Int32(text.count))
        let entry = longBytes([UInt(forged)])
        XChangeProperty(watcher.display, watcher.root, watcher.atom("_XTOAST_QUEUE"), Atom(XA_WINDOW), 32, PropModeAppend, entry, 1)
        XSync(watcher.display, 0)
        let resumed = Date()
        #expect(try XToastProcess.run(["--resume"], display: server.name).status == 0)
        let window = try #require(try watcher.waitForToasts(timeout: QueueProtocol.passerGrace + 5).first)
        #expect(watcher.pid(window) == held.child.pid)
        #expect(Date().timeIntervalSince(resumed) < QueueProtocol.passerGrace + 3)
        #expect(try held.wait().stdout == "expired\n")
        XDestroyWindow(watcher.display, forged)
        XSync(watcher.display, 0)
    }
}

/// Format-32 property data as Xlib takes it: C longs.
private func longBytes(_ values: [UInt]) -> [UInt8] {
    values.withUnsafeBytes { Array($0) }
}
