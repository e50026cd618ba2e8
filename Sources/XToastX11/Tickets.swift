import CX11
import Glibc
import XToastCore

extension XDisplay {
    /// What each window says as a ticket, nil for one that is not a ticket: gone, not an
    /// `InputOnly` window (the root is not one, so a ticket property written there never blocks
    /// the queue for ever), or without a valid `_XTOAST_TICKET`. All the questions go out
    /// together through XCB: one round trip for any number of windows, where asking one by one
    /// took one each (a long queue over `ssh -X`).
    public func tickets(_ windows: [Window]) -> [Ticket?] {
        answers(to: askTickets(windows))
    }

    /// `tickets`, and the queue asked again after them in the same round trip (see
    /// `QueueProtocol.stillHolds`).
    func ticketsThenQueue(_ windows: [Window]) -> ([Ticket?], [UInt]) {
        let questions = askTickets(windows)
        let queueQuestion = xcb_get_property(
            connection, 0, xcb_window_t(truncatingIfNeeded: root), xcb_atom_t(atoms.queue), xcb_atom_t(XA_WINDOW), 0,
            UInt32(TicketQueue.entryLimit))
        let found = answers(to: questions)
        let entries = cardinals(queueQuestion, type: XCB_ATOM_WINDOW, cut: true) ?? []
        return (found, TicketQueue.pruned(entries.map { UInt($0) }, removing: []))
    }

    /// What each window says as a ticket, with its `_XTOAST_SHOWN` and `_XTOAST_REPLACES`:
    /// everything a tagged toast's placement needs, in one round trip.
    func ticketFacts(_ windows: [Window]) -> [QueueMember.Facts] {
        let questions = askTickets(windows)
        let extras = windows.map { window -> (xcb_get_property_cookie_t, xcb_get_property_cookie_t)? in
            let id = xcb_window_t(truncatingIfNeeded: window)
            guard window == UInt(id) && window != 0 else { return nil }
            return (
                xcb_get_property(connection, 0, id, xcb_atom_t(atoms.shown), xcb_atom_t(XA_CARDINAL), 0, 5),
                xcb_get_property(
                    connection, 0, id, xcb_atom_t(atoms.replaces), xcb_atom_t(XA_WINDOW), 0, UInt32(TicketQueue.entryLimit))
            )
        }
        let found = answers(to: questions)
        return zip(found, extras).map { ticket, extra in
            guard let (shownQuestion, replacesQuestion) = extra else { return QueueMember.Facts(ticket: nil, shown: nil, replaces: []) }
            // Both replies are read, whatever the ticket says, so that none is left behind.
            let shown = cardinals(shownQuestion, type: XCB_ATOM_CARDINAL, cut: true)
            let replaces = cardinals(replacesQuestion, type: XCB_ATOM_WINDOW, cut: true) ?? []
            return QueueMember.Facts(
                ticket: ticket, shown: QueueMember.Shown(values: shown?.map { UInt($0) }), replaces: replaces.map { UInt($0) })
        }
    }

    private typealias TicketQuestion = (xcb_get_window_attributes_cookie_t, xcb_get_property_cookie_t)

    private func askTickets(_ windows: [Window]) -> [TicketQuestion?] {
        let longs = UInt32((Ticket.byteLimit + 3) / 4)
        return windows.map { window in
            let id = xcb_window_t(truncatingIfNeeded: window)
            // An id past 32 bits comes from garbage: the truncated id must not be asked about.
            return window == UInt(id) && window != 0
                ? (
                    xcb_get_window_attributes(connection, id),
                    xcb_get_property(connection, 0, id, xcb_atom_t(atoms.ticket), xcb_atom_t(atoms.utf8String), 0, longs)
                ) : nil
        }
    }

    private func answers(to questions: [TicketQuestion?]) -> [Ticket?] {
        questions.map { question in
            guard let (attributesQuestion, propertyQuestion) = question else { return nil }
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            let attributes = xcb_get_window_attributes_reply(connection, attributesQuestion, &error)
            free(error)
            error = nil
            let property = xcb_get_property_reply(connection, propertyQuestion, &error)
            defer {
                free(attributes)
                free(property)
                free(error)
            }
            guard let attributes, attributes.pointee._class == UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue), let property,
                property.pointee.type == xcb_atom_t(atoms.utf8String), property.pointee.format == 8,
                property.pointee.bytes_after == 0, let value = xcb_get_property_value(property)
            else { return nil }
            let count = Int(xcb_get_property_value_length(property))
            return Ticket(decoding: UnsafeRawBufferPointer(start: value, count: count))
        }
    }

    /// A ticket's contents; nil when the window is not a live ticket (see `tickets`).
    public func ticketInfo(_ window: Window) -> Ticket? { tickets([window])[0] }

    /// The live tickets among `entries`, in order, with what they say about themselves.
    public func liveTickets(in entries: [UInt]) -> [(Window, Ticket)] {
        zip(entries, tickets(entries.map { Window($0) })).compactMap { entry, ticket in ticket.map { (Window(entry), $0) } }
    }
}
