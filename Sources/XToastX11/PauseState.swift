import CX11
import XToastCore

/// Do not disturb on the server: the root's `_XTOAST_PAUSED` (see `Pause`), read and written.
extension XDisplay {
    /// The pause as the root says it at `now` (wall clock, seconds since 1970); nil: not paused.
    /// A round trip.
    public func pause(now: Double) -> Pause? {
        // Two values asked for: a longer list is garbage, and reads as not paused.
        Pause.reading(listProperty(root, atoms.paused, type: Atom(XA_CARDINAL), limit: 2), now: now)
    }

    /// Pauses the toasts on this display (nil: resumes them), and waits until the server has it.
    public func setPause(_ pause: Pause?) {
        if let pause {
            setListProperty(root, atoms.paused, type: Atom(XA_CARDINAL), pause.encoded)
        } else {
            XDeleteProperty(pointer, root, atoms.paused)
        }
        XSync(pointer, 0)
    }

    /// The queue (as `readQueue`), `_XTOAST_PAUSED`'s values (nil: absent or malformed) and
    /// the notification service's window that says who inhibits, when one does (`Inhibited`),
    /// asked together: one round trip, as the queue alone took, so that a toast that never meets
    /// a pause or an inhibition pays nothing for them (the holders' text is a second one, asked
    /// only while the root names such a window). `Pause.reading` says what the values mean.
    func queueAndRawPause() -> (queue: [UInt], pause: [UInt]?, inhibitedBy: Window?) {
        let root = xcb_window_t(truncatingIfNeeded: self.root)
        let pauseQuestion = xcb_get_property(connection, 0, root, xcb_atom_t(atoms.paused), xcb_atom_t(XA_CARDINAL), 0, 2)
        let queueQuestion = xcb_get_property(
            connection, 0, root, xcb_atom_t(atoms.queue), xcb_atom_t(XA_WINDOW), 0, UInt32(TicketQueue.entryLimit))
        let inhibitionQuestion = askInhibitionWindow()
        let pause = cardinals(pauseQuestion, type: XCB_ATOM_CARDINAL, cut: true)?.map { UInt($0) }
        let entries = cardinals(queueQuestion, type: XCB_ATOM_WINDOW, cut: true) ?? []
        let window = inhibitionWindow(inhibitionQuestion)
        // A pointer left by a service that died names no window, or one without holders.
        let held = askInhibitedText(on: window).flatMap(utf8Value).flatMap { Inhibited.reading($0) } != nil
        return (TicketQueue.pruned(entries.map { UInt($0) }, removing: []), pause, held ? window : nil)
    }
}
