import CX11
import Foundation
import Testing

/// Toasts from many processes take turns through the X server (docs/protocol.md).
extension OnScreen {
    @Suite struct Queue {
        @Test func tenProcessesShowInStartOrderNeverTwoAtOnce() throws {
            let (display, watcher) = try prepareSharedDisplay()
            // All ten join behind a sticky toast, each before the next starts: the queue's order
            // is the start order, and the watcher knows every ticket before a toast shows.
            let blocker = try XToastProcess(["--duration", "sticky", "Ahead"], display: display)
            let blockerWindow = try #require(try watcher.waitForToasts().first)
            var toasts: [XToastProcess] = []
            for i in 0..<10 {
                toasts.append(
                    try XToastProcess(["--duration", "0.4", "--fade-in", "0", "--fade-out", "0", "Toast \(i)"], display: display))
                try waitForQueue(watcher, length: i + 2)
            }
            blocker.signal(SIGUSR1)
            // Gone before the first of the ten shows, or the first one's map goes unrecorded here.
            try watcher.waitForDestroy(blockerWindow)
            let events = try watcher.recordToasts(timeout: 60) { $0.filter { !$0.mapped }.count == 10 }
            #expect(events.filter(\.mapped).map(\.pid) == toasts.map(\.child.pid))
            // Maps and destroys alternate: the next appears only after the previous is gone.
            #expect(events.map(\.mapped) == Array(repeating: [true, false], count: 10).flatMap { $0 })
            for toast in toasts { #expect(try toast.wait().status == 0) }
            #expect(try blocker.wait().status == 0)
        }

        @Test func aKilledProcessNeverBlocksTheOthers() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let showing = try XToastProcess(["--duration", "sticky", "Showing"], display: display)
            _ = try watcher.waitForToasts()
            // Each registers before the next starts, so that the queue order is known.
            let next = try XToastProcess(["--duration", "sticky", "--print-outcome", "Next"], display: display)
            try waitForQueue(watcher, length: 2)
            let waiting = try XToastProcess(["--duration", "sticky", "Waiting"], display: display)
            try waitForQueue(watcher, length: 3)
            let last = try XToastProcess(["--duration", "0.2", "--print-outcome", "Last"], display: display)
            try waitForQueue(watcher, length: 4)

            showing.signal(SIGKILL)
            var killed = Date()
            let nextWindow = try #require(try watcher.waitForToasts().first)
            #expect(Date().timeIntervalSince(killed) < 0.3, "the next toast took \(Date().timeIntervalSince(killed)) s")
            #expect(watcher.pid(nextWindow) == next.child.pid)

            waiting.signal(SIGKILL)
            #expect(try waiting.wait().status == 128 + SIGKILL)
            next.signal(SIGUSR1)
            killed = Date()
            let lastWindow = try #require(try watcher.waitForToasts().first)
            #expect(Date().timeIntervalSince(killed) < 0.3)
            #expect(watcher.pid(lastWindow) == last.child.pid)
            #expect(try next.wait().stdout == "dismissed\n")
            #expect(try last.wait().stdout == "expired\n")
            #expect(try showing.wait().status == 128 + SIGKILL)
        }

        @Test func twentyTagUpdatesInASecondLeaveOneToastWithTheLastText() throws {
            let (display, watcher) = try prepareSharedDisplay()
            var presses: [XToastProcess] = []
            for volume in stride(from: 5, through: 100, by: 5) {
                presses.append(
                    try XToastProcess(["--tag", "volume", "--duration", "1.5", "--print-outcome", "Volume \(volume)%"], display: display))
                // Real time is the point: key presses twenty to the second, whatever xtoast is doing.
                usleep(50_000)
            }
            let last = try #require(presses.last)
            for press in presses.dropLast() {
                let result = try press.wait()
                #expect(result.status == 0)
                #expect(result.stdout == "replaced\n")
            }
            // Everyone else has gone: exactly one toast, the last one's.
            let shown = watcher.mappedToasts()
            #expect(shown.count == 1)
            #expect(shown.first.flatMap(watcher.pid) == last.child.pid)
            #expect(try last.wait().stdout == "expired\n")
        }

        @Test func actionExitsZeroWhenClickedAndTwoWhenNot() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let clicked = try XToastProcess(
                ["--action", "--duration", "sticky", "--monitor", "L", "--print-outcome", "Install?"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            try click(frame, display: display)
            let yes = try clicked.wait()
            #expect(yes.status == 0)
            #expect(yes.stdout == "action\n")

            let expired = try XToastProcess.run(
                ["--action", "--duration", "0", "--fade-out", "0", "--print-outcome", "Install?"], display: display)
            #expect(expired.status == 2)
            #expect(expired.stdout == "expired\n")
        }

        @Test func dismissAllEndsEveryWaitingProcess() throws {
            let (display, watcher) = try prepareSharedDisplay()
            // Each registers before the next starts, so all four are queued when --dismiss-all looks.
            let toasts = try (0..<4).map { i -> XToastProcess in
                let toast = try XToastProcess(["--duration", "sticky", "--print-outcome", "Toast \(i)"], display: display)
                try waitForQueue(watcher, length: i + 1)
                return toast
            }
            #expect(try XToastProcess.run(["--dismiss-all"], display: display).status == 0)
            for toast in toasts {
                let result = try toast.wait()
                #expect(result.status == 0)
                #expect(result.stdout == "dismissed\n")
            }
            #expect(watcher.mappedToasts().isEmpty)
        }

        @Test func dismissClosesTheToastOnScreenOrThoseWithATag() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let first = try XToastProcess(["--duration", "sticky", "--print-outcome", "First"], display: display)
            _ = try watcher.waitForToasts()
            let tagged = try XToastProcess(["--duration", "sticky", "--tag", "build", "--print-outcome", "Tagged"], display: display)
            try waitForQueue(watcher, length: 2)
            let other = try XToastProcess(["--duration", "sticky", "--print-outcome", "Other"], display: display)
            try waitForQueue(watcher, length: 3)

            #expect(try XToastProcess.run(["--dismiss", "--tag", "build"], display: display).status == 0)
            #expect(try tagged.wait().stdout == "dismissed\n")
            #expect(first.child.isRunning)
            #expect(try XToastProcess.run(["--dismiss"], display: display).status == 0)
            #expect(try first.wait().stdout == "dismissed\n")
            let otherWindow = try #require(try watcher.waitForToasts().first)
            #expect(watcher.pid(otherWindow) == other.child.pid)
            other.signal(SIGUSR1)
            #expect(try other.wait().stdout == "dismissed\n")
        }

        @Test func detachReturnsAtOnceAndTheToastStillShows() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let blocker = try XToastProcess(["--duration", "sticky", "Ahead"], display: display)
            _ = try watcher.waitForToasts()
            // Queued behind a sticky toast, --detach still returns at once.
            let detached = try XToastProcess.run(["-b", "--duration", "0.2", "Later"], display: display, timeout: 5)
            #expect(detached.status == 0)
            blocker.signal(SIGTERM)
            let later = try #require(try watcher.waitForToasts().first)
            #expect(watcher.pid(later) != blocker.child.pid)
            try watcher.waitForDestroy(later)
        }

        @Test func garbageFromOtherClientsIsSurvived() throws {
            let (display, watcher) = try prepareSharedDisplay()
            // The wrong type altogether.
            let text = Array("garbage".utf8)
            watcher.setRootProperty("_XTOAST_QUEUE", type: Atom(XA_STRING), format: 8, bytes: text, count: text.count)
            var result = try XToastProcess.run(["--duration", "0", "--fade-out", "0", "After garbage"], display: display)
            #expect(result.status == 0)
            #expect(result.stderr.contains("ignored a malformed _XTOAST_QUEUE"))

            // Window ids that are not tickets: the root, a plain window, ids that do not exist,
            // and a window whose ticket says nonsense.
            let plain = watcher.mapPlainWindow((0, 0, 10, 10))
            let fake = XCreateSimpleWindow(watcher.display, watcher.root, 0, 0, 1, 1, 0, 0, 0)
            let nonsense = Array("v=1\npid=-4\ntag=\u{1}\n".utf8)
            XChangeProperty(
                watcher.display, fake, watcher.atom("_XTOAST_TICKET"), watcher.atom("UTF8_STRING"), 8, PropModeReplace, nonsense,
                Int32(nonsense.count))
            let ids: [UInt] = [UInt(watcher.root), UInt(plain), 0x7fff_fff0, 0, UInt(fake), 0xffff_ffff]
            let bytes = ids.withUnsafeBytes { Array($0) }
            watcher.setRootProperty("_XTOAST_QUEUE", type: Atom(XA_WINDOW), format: 32, bytes: bytes, count: ids.count)
            defer {
                XDestroyWindow(watcher.display, plain)
                XDestroyWindow(watcher.display, fake)
                XSync(watcher.display, 0)
            }
            result = try XToastProcess.run(["--duration", "0", "--fade-out", "0", "After fake tickets"], display: display)
            #expect(result.status == 0, "\(result.stderr)")

            // A malformed command sent to a live ticket is ignored.
            let victim = try XToastProcess(["--duration", "sticky", "--print-outcome", "Target"], display: display)
            _ = try watcher.waitForToasts()
            let ticket = try #require(UInt(exactly: watcher.queue().last ?? 0))
            var event = XEvent()
            event.xclient.type = ClientMessage
            event.xclient.window = Window(ticket)
            event.xclient.message_type = watcher.atom("_XTOAST_COMMAND")
            event.xclient.format = 32
            event.xclient.data.l.0 = 9999
            XSendEvent(watcher.display, Window(ticket), 0, 0, &event)
            XSync(watcher.display, 0)
            #expect(try XToastProcess.run(["--dismiss"], display: display).status == 0)
            let ended = try victim.wait()
            #expect(ended.stdout == "dismissed\n")
            #expect(ended.stderr.contains("ignored a malformed _XTOAST_COMMAND"))
            // Nothing is left behind.
            #expect(watcher.liveTickets("_XTOAST_QUEUE").isEmpty)
        }
    }
}

/// Waits until `_XTOAST_QUEUE` lists `length` live tickets, watching root property changes.
func waitForQueue(_ watcher: XWatcher, length: Int, timeout: Double = 10) throws {
    try waitForList(watcher, "_XTOAST_QUEUE", length: length, timeout: timeout)
}

extension XWatcher {
    /// The ticket ids in `_XTOAST_QUEUE`, oldest first.
    func queue() -> [UInt] { list("_XTOAST_QUEUE") }

    /// The live tickets of a root list: a killed process's entry stays until a later process
    /// prunes it, but its ticket window is gone. The server gives a new client the ids of one
    /// that left, so a stale entry may name a new ticket: like xtoast, count its last entry.
    func liveTickets(_ name: String) -> [UInt] {
        var seen = Set<UInt>()
        let entries = list(name).reversed().filter { seen.insert($0).inserted }.reversed()
        return entries.filter { entry in
            var type: Atom = 0
            var format: Int32 = 0
            var count: UInt = 0
            var remaining: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let status = XGetWindowProperty(
                display, Window(entry), atom("_XTOAST_TICKET"), 0, 1024, 0, atom("UTF8_STRING"), &type, &format, &count, &remaining, &data)
            if let data { XFree(data) }
            return status == Success && count > 0
        }
    }

    /// A root list of ticket ids, oldest first.
    func list(_ name: String) -> [UInt] { longs(root, name, type: Atom(XA_WINDOW)) }
}
