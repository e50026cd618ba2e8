import CX11
import Glibc
import XToastCore

/// What `xtoast --watch` hears of the display: the root's queue lists, pause and inhibition,
/// and the tickets in those lists, read when one of them changes (`PropertyNotify`, a ticket's
/// end), never on a timer. Each listed ticket is followed (its own events asked for) before it
/// is read, so that a toast that shows after the read still wakes the watch; so is the
/// notification service's window that says who inhibits, whose end (the service's death) ends
/// the inhibition.
public final class StatusWatch {
    private let display: XDisplay
    /// The tickets whose changes and end we hear; at most the lists' entries.
    private var followed: Set<Window> = []

    private static let ticketMask = UInt32(StructureNotifyMask | PropertyChangeMask)

    public init(_ display: XDisplay) {
        self.display = display
        display.listenOnRoot(PropertyChangeMask, as: .status)
    }

    /// The pause, the inhibition's window and the queue's three lists in one round trip, then
    /// the listed tickets and their `_XTOAST_SHOWN`, and who inhibits, in another (as `--list`
    /// reads them, without the root's other children: a bar counts the queue's toasts).
    public func read() -> Watch.Display {
        let root = xcb_window_t(truncatingIfNeeded: display.root)
        let atoms = display.atoms
        let lists = [atoms.queue, atoms.stack, atoms.scheduled].map {
            xcb_get_property(display.connection, 0, root, xcb_atom_t($0), xcb_atom_t(XA_WINDOW), 0, UInt32(TicketQueue.entryLimit))
        }
        let pauseQuestion = xcb_get_property(display.connection, 0, root, xcb_atom_t(atoms.paused), xcb_atom_t(XA_CARDINAL), 0, 2)
        let inhibitionQuestion = display.askInhibitionWindow()
        let entries = lists.map { question in
            TicketQueue.pruned((display.cardinals(question, type: XCB_ATOM_WINDOW, cut: true) ?? []).map { UInt($0) }, removing: [])
        }
        let pauseValues = display.cardinals(pauseQuestion, type: XCB_ATOM_CARDINAL, cut: true)?.map { UInt($0) }
        var seen = Set<UInt>()
        let windows = entries.joined().filter { seen.insert($0).inserted }.map { Window($0) }
        let inhibition = display.inhibitionWindow(inhibitionQuestion)
        // Followed before its text is read: a change or an end after the read still wakes us.
        follow(windows + (inhibition.map { [$0] } ?? []))
        let inhibitedQuestion = display.askInhibitedText(on: inhibition)
        let found = zip(windows, display.ticketFacts(windows)).compactMap { window, facts -> Listing.Found? in
            facts.ticket.map { (UInt(window), $0, facts.shown) }
        }
        return Watch.Display(
            pauseValues: pauseValues, queue: entries[0], stack: entries[1], scheduled: entries[2], tickets: found,
            inhibitedValue: inhibitedQuestion.flatMap(display.utf8Value))
    }

    /// Asks for the events of the tickets listed now, and no more for those that left the lists.
    private func follow(_ windows: [Window]) {
        let listed = Set(windows)
        for window in followed.subtracting(listed) { display.listen(on: window, 0) }
        for window in listed.subtracting(followed) { display.listen(on: window, Self.ticketMask) }
        followed = listed
    }

    /// Takes every event waiting (also the ones that came in during a read); whether one of them
    /// may change what `read` says. A lost connection ends the process in Xlib's I/O handler.
    public func takeEvents() -> Bool {
        let atoms = display.atoms
        var changed = false
        while XPending(display.pointer) > 0 {
            var event = XEvent()
            XNextEvent(display.pointer, &event)
            switch event.type {
            case PropertyNotify where event.xproperty.window == display.root:
                if [atoms.queue, atoms.stack, atoms.scheduled, atoms.paused, atoms.inhibited].contains(event.xproperty.atom) {
                    changed = true
                }
            case PropertyNotify where followed.contains(event.xproperty.window):
                if event.xproperty.atom == atoms.shown || event.xproperty.atom == atoms.ticket { changed = true }
            case DestroyNotify:
                if followed.remove(event.xdestroywindow.window) != nil { changed = true }
            default: break
            }
        }
        return changed
    }

    /// Sends what was asked (the events of tickets that left the lists) before the watch sleeps.
    public func flush() { XFlush(display.pointer) }

    /// The descriptor to poll for events.
    public var descriptor: Int32 { display.fileDescriptor }
}
