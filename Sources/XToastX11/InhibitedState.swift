import CX11
import Glibc
import XToastCore

/// Who holds applications' notifications, on the server (see `Inhibited`): the root's
/// `_XTOAST_INHIBITED` names a window of the notification service's, whose `_XTOAST_INHIBITED`
/// says who. The service writes it; `--list`, `--watch` and the centre read it, and follow the
/// window's end.
extension XDisplay {
    /// Publishes `inhibited` (nil: nobody holds any more) from the notification service: the text
    /// on a window of this connection (made at the first inhibition, destroyed at the last), then
    /// the root's pointer to it, set again at each change so that readers hear of it. Never
    /// waits for the server (the service never does).
    public func publishInhibited(_ inhibited: Inhibited?) {
        guard let inhibited else {
            // Only a pointer of ours is taken away: another service's is its own to end.
            guard inhibitionWindow != 0 else { return }
            XDeleteProperty(pointer, root, atoms.inhibited)
            XDestroyWindow(pointer, inhibitionWindow)
            inhibitionWindow = 0
            XFlush(pointer)
            return
        }
        if inhibitionWindow == 0 {
            var attributes = XSetWindowAttributes()
            attributes.override_redirect = 1
            // InputOnly and never mapped: nothing on screen, no window manager's interest.
            inhibitionWindow = XCreateWindow(
                pointer, root, -1, -1, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect), &attributes)
        }
        let bytes = inhibited.encoded
        _ = XChangeProperty(pointer, inhibitionWindow, atoms.inhibited, atoms.utf8String, 8, PropModeReplace, bytes, Int32(bytes.count))
        setListProperty(root, atoms.inhibited, type: Atom(XA_WINDOW), [inhibitionWindow])
        XFlush(pointer)
    }

    /// Asks for the root's pointer (read with `inhibitionWindow(_:)`): it travels with the other
    /// questions of a read, and adds no round trip of its own.
    func askInhibitionWindow() -> xcb_get_property_cookie_t {
        xcb_get_property(
            connection, 0, xcb_window_t(truncatingIfNeeded: root), xcb_atom_t(atoms.inhibited), xcb_atom_t(XA_WINDOW), 0, 2)
    }

    /// The window the root's pointer names: nil when there is none, or it is not exactly one
    /// window, or names the root (whose property is the pointer itself).
    func inhibitionWindow(_ question: xcb_get_property_cookie_t) -> Window? {
        guard let values = cardinals(question, type: XCB_ATOM_WINDOW), values.count == 1, values[0] != 0,
            Window(values[0]) != root
        else { return nil }
        return Window(values[0])
    }

    /// Asks for the text on `window` (read with `utf8Value`), bounded by `Inhibited.byteLimit`.
    func askInhibitedText(on window: Window?) -> xcb_get_property_cookie_t? {
        window.map {
            xcb_get_property(
                connection, 0, xcb_window_t(truncatingIfNeeded: $0), xcb_atom_t(atoms.inhibited), xcb_atom_t(atoms.utf8String), 0,
                UInt32(Inhibited.byteLimit / 4 + 1))
        }
    }

    /// Who holds notifications now, in two round trips (the centre's, as it opens and when it
    /// hears of a change); `follow` is given the service's window between them, to ask for its
    /// end (the inhibition's, if the service dies) before its text is read.
    public func inhibited(follow: (Window?) -> Void) -> Inhibited? {
        let window = inhibitionWindow(askInhibitionWindow())
        follow(window)
        return Inhibited.reading(askInhibitedText(on: window).flatMap(utf8Value))
    }

    /// A UTF8_STRING property's bytes, whole (nil: none, another type, longer than asked, or
    /// its window gone).
    func utf8Value(_ question: xcb_get_property_cookie_t) -> [UInt8]? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_get_property_reply(connection, question, &error)
        defer {
            free(reply)
            free(error)
        }
        guard let reply, reply.pointee.type == UInt32(atoms.utf8String), reply.pointee.format == 8, reply.pointee.bytes_after == 0,
            let value = xcb_get_property_value(reply)
        else { return nil }
        let count = Int(xcb_get_property_value_length(reply))
        return Array(UnsafeRawBufferPointer(start: value, count: count))
    }

    /// Asks for `mask`'s events on another client's `window` (0: none any more), through XCB in
    /// order with the questions; a window already gone answers with an error, collected.
    func listen(on window: Window, _ mask: UInt32) {
        var mask = mask
        xcb_change_window_attributes(connection, xcb_window_t(truncatingIfNeeded: window), UInt32(XCB_CW_EVENT_MASK.rawValue), &mask)
    }
}
