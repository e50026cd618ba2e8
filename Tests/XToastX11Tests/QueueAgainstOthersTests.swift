import CX11
import Foundation
import Testing

/// The queue against what the server and other clients do to it: ids reused by new clients,
/// lists full of dead entries, ticket properties where no ticket is (docs/protocol.md).
extension OnScreen {
    @Suite struct QueueAgainstOthers {
        static let quick = ["--fade-in", "0", "--duration", "0.1", "--fade-out", "0", "--print-outcome"]

        /// The server gives a new client the id range of one that left: a waiting toast may get
        /// the ticket id of a replaced one still listed in `_XTOAST_REPLACES`. It must not be
        /// told "replaced" by the next toast with that tag.
        @Test func replacedOnlyReachesTicketsWithTheTag() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let blocker = try XToastProcess(["--duration", "sticky", "Blocker"], display: display)
            _ = try watcher.waitForToasts()
            let first = try XToastProcess(Self.quick + ["--tag", "vol", "Volume 1"], display: display)
            try waitForQueue(watcher, length: 2)
            let firstTicket = watcher.queue().last
            let second = try XToastProcess(Self.quick + ["--tag", "vol", "Volume 2"], display: display)
            let firstEnded = try first.wait()
            #expect(firstEnded.stdout == "replaced\n")
            #expect(firstEnded.stderr.isEmpty, "\(firstEnded.stderr)")
            // The next client to connect gets the id range the first one had.
            let unrelated = try XToastProcess(Self.quick + ["Unrelated"], display: display)
            try waitForQueue(watcher, length: 3)
            let reused = watcher.queue().last == firstTicket
            let third = try XToastProcess(Self.quick + ["--tag", "vol", "Volume 3"], display: display)
            let secondEnded = try second.wait()
            #expect(secondEnded.stdout == "replaced\n")
            #expect(secondEnded.stderr.isEmpty, "\(secondEnded.stderr)")
            blocker.signal(SIGUSR1)
            #expect(try unrelated.wait().stdout == "expired\n")
            #expect(try third.wait().stdout == "expired\n")
            #expect(try blocker.wait().status == 0)
            #expect(reused, "the server gave the unrelated toast a new id: the case did not happen")
            try expectOthersStillShow(display, watcher)
        }

        /// One property write by any client can put more dead ids in the queue than a process
        /// reads: a new toast still shows, and so does the next one.
        @Test(arguments: [1100, 70_000])
        func deadEntriesAheadNeverBlock(count: Int) throws {
            let (display, watcher) = try prepareSharedDisplay()
            let garbage = (0..<count).map { UInt(0x7f00_0000 + $0) }
            let bytes = garbage.withUnsafeBytes { Array($0) }
            watcher.setRootProperty("_XTOAST_QUEUE", type: Atom(XA_WINDOW), format: 32, bytes: bytes, count: garbage.count)
            let result = try XToastProcess.run(Self.quick + ["After garbage"], display: display, timeout: 10)
            #expect(result.status == 0)
            #expect(result.stdout == "expired\n")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(try XToastProcess.run(["--dismiss-all"], display: display, timeout: 10).status == 0)
            #expect(watcher.queue().count < 1024, "the dead entries were not pruned")
            try expectOthersStillShow(display, watcher)
        }

        /// The root window never goes away: a ticket property on it, with the root in the
        /// queue, must not block every toast for ever.
        @Test func aTicketPropertyOnTheRootIsNoTicket() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let ticket = Array("v=1\npid=1\n".utf8)
            XChangeProperty(
                watcher.display, watcher.root, watcher.atom("_XTOAST_TICKET"), watcher.atom("UTF8_STRING"), 8, PropModeReplace, ticket,
                Int32(ticket.count))
            defer {
                XDeleteProperty(watcher.display, watcher.root, watcher.atom("_XTOAST_TICKET"))
                XSync(watcher.display, 0)
            }
            let ids = [UInt(watcher.root)]
            watcher.setRootProperty(
                "_XTOAST_QUEUE", type: Atom(XA_WINDOW), format: 32, bytes: ids.withUnsafeBytes { Array($0) }, count: ids.count)
            let result = try XToastProcess.run(Self.quick + ["Past the root"], display: display, timeout: 10)
            #expect(result.status == 0)
            #expect(result.stdout == "expired\n")
            try expectOthersStillShow(display, watcher)
        }

        /// Another client deleting or reordering the queue while a toast shows: the toasts
        /// waiting behind it wait for it to end all the same, then show in order.
        @Test(arguments: ["delete", "reorder"])
        func aQueueChangedUnderAShowingToastStillWaitsForIt(change: String) throws {
            let (display, watcher) = try prepareSharedDisplay()
            let showing = try XToastProcess(["--duration", "sticky", "Showing"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let waiting = try XToastProcess(Self.quick + ["Waiting"], display: display)
            try waitForQueue(watcher, length: 2)
            // The change comes once the waiter has looked at the queue and waits for the first
            // ticket: what is tested is a change *while* it waits. It listens to that ticket from
            // the start of its look, and sleeps in its loop once the look is over (a change in
            // the middle of a look finds it missing from the queue: it joins again at the end,
            // first, with nothing to tell it that a toast shows).
            try waitUntilWatched(watcher, Window(watcher.queue()[0]))
            try waitUntil("the waiting toast asleep in its loop") { waiting.child.sleepsInItsLoop }
            if change == "delete" {
                XDeleteProperty(watcher.display, watcher.root, watcher.atom("_XTOAST_QUEUE"))
            } else {
                let reordered = Array(watcher.queue().reversed())
                watcher.setRootProperty(
                    "_XTOAST_QUEUE", type: Atom(XA_WINDOW), format: 32, bytes: reordered.withUnsafeBytes { Array($0) },
                    count: reordered.count)
            }
            XSync(watcher.display, 0)
            // Nothing may map while the first toast is up. Absence has no event to wait for: a
            // second is ten times what a waiting toast took to show over it.
            let deadline = Date().addingTimeInterval(1)
            while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow), Date() < deadline {
                #expect(!(event.type == MapNotify && event.xmap.override_redirect != 0), "a toast showed over the first")
            }
            showing.signal(SIGUSR1)
            try watcher.waitForDestroy(window)
            #expect(try waiting.wait().stdout == "expired\n")
            #expect(try showing.wait().status == 0)
            try expectOthersStillShow(display, watcher)
        }
    }
}

/// Waits until some client listens to `window`'s structure events: a waiting xtoast watching
/// the ticket ahead of it. Another client's selection is no event: the server's union of all
/// clients' masks is polled.
func waitUntilWatched(_ watcher: XWatcher, _ window: Window, timeout: Double = 10) throws {
    try waitUntil("someone watching window \(window)", timeout: timeout) {
        var attributes = XWindowAttributes()
        return XGetWindowAttributes(watcher.display, window, &attributes) != 0 && attributes.all_event_masks & StructureNotifyMask != 0
    }
}
