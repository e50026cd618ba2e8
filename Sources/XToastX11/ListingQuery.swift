import CX11
import Glibc
import XToastCore

extension XDisplay {
    /// Root children past this many are not looked at: tickets are a handful, and a client
    /// that made a million windows must not make `--list` ask about each.
    static let listedChildLimit = 4096

    /// Everything `xtoast --list` shows, in two round trips: the root's children with its three
    /// lists, the pause and the inhibition's window, then every child's ticket and
    /// `_XTOAST_SHOWN` (a toast delayed by a fullscreen window is in no list, but its ticket is
    /// still a child of the root) and who holds the inhibition.
    public func listing(now: Double) -> (toasts: [Listing.Toast], pause: Pause?, inhibited: Inhibited?) {
        let rootID = xcb_window_t(truncatingIfNeeded: root)
        let tree = xcb_query_tree(connection, rootID)
        let lists = [atoms.queue, atoms.stack, atoms.scheduled].map {
            xcb_get_property(connection, 0, rootID, xcb_atom_t($0), xcb_atom_t(XA_WINDOW), 0, UInt32(TicketQueue.entryLimit))
        }
        let pauseQuestion = xcb_get_property(connection, 0, rootID, xcb_atom_t(atoms.paused), xcb_atom_t(XA_CARDINAL), 0, 2)
        let inhibitionQuestion = askInhibitionWindow()
        var children: [Window] = []
        if let reply = xcb_query_tree_reply(connection, tree, nil) {
            let count = min(Int(xcb_query_tree_children_length(reply)), Self.listedChildLimit)
            if let ids = xcb_query_tree_children(reply) { children = (0..<count).map { Window(ids[$0]) } }
            free(reply)
        }
        let entries = lists.map { question in
            TicketQueue.pruned((cardinals(question, type: XCB_ATOM_WINDOW, cut: true) ?? []).map { UInt($0) }, removing: [])
        }
        let pause = Pause.reading(cardinals(pauseQuestion, type: XCB_ATOM_CARDINAL, cut: true)?.map { UInt($0) }, now: now)
        let inhibitedQuestion = askInhibitedText(on: inhibitionWindow(inhibitionQuestion))
        // What each says, asked with the tickets: the same round trip.
        let saidQuestions = children.map { window in
            xcb_get_property(
                connection, 0, xcb_window_t(truncatingIfNeeded: window), xcb_atom_t(atoms.text), xcb_atom_t(atoms.utf8String), 0,
                UInt32(Listing.Said.byteLimit / 4 + 1))
        }
        let found = zip(children, ticketFacts(children)).compactMap { window, facts -> Listing.Found? in
            facts.ticket.map { (UInt(window), $0, facts.shown) }
        }
        let inhibited = Inhibited.reading(inhibitedQuestion.flatMap(utf8Value))
        var said: [UInt: Listing.Said] = [:]
        for (window, question) in zip(children, saidQuestions) {
            if let value = utf8Value(question) { said[UInt(window)] = Listing.Said(decoding: value) }
        }
        let toasts = Listing.toasts(
            queue: entries[0], stack: entries[1], scheduled: entries[2], tickets: found,
            // An inhibition holds scripts' toasts as a pause does (`Pause.values`).
            paused: pause != nil || inhibited != nil, said: said)
        return (toasts, pause, inhibited)
    }
}
