import CX11
import Glibc
import XToastCore

/// Whether another client holds the keyboard and the pointer (`InputGrabs`), asked without
/// grabbing anything: a grab is asked for on a window of ours that is never mapped, which the
/// server refuses as `AlreadyGrabbed` when another client holds the device and as `NotViewable`
/// when nobody does (it checks in that order). No other client sees anything: no focus change,
/// no crossing, no key lost, unlike a real grab. Asked with the start-up batch, no round trip
/// of its own.
struct InputProbe {
    fileprivate let keyboard: xcb_grab_keyboard_cookie_t
    fileprivate let pointer: xcb_grab_pointer_cookie_t

    /// Asks, without waiting.
    init(_ display: XDisplay) {
        let window = display.probeWindow
        let time = xcb_timestamp_t(XCB_CURRENT_TIME)
        let async = UInt8(XCB_GRAB_MODE_ASYNC.rawValue)
        keyboard = xcb_grab_keyboard(display.connection, 0, window, time, async, async)
        pointer = xcb_grab_pointer(display.connection, 0, window, 0, async, async, 0, 0, time)
    }

    /// The answers (waits for them). A grab that was given after all (a server that checks in
    /// another order) is let go at once; an answer that cannot be read counts as held: a screen
    /// that may be locked is treated as locked.
    func grabs(_ display: XDisplay) -> InputGrabs {
        let connection = display.connection
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let keyboardReply = xcb_grab_keyboard_reply(connection, keyboard, &error)
        free(error)
        error = nil
        let pointerReply = xcb_grab_pointer_reply(connection, pointer, &error)
        free(error)
        defer {
            free(keyboardReply)
            free(pointerReply)
        }
        let time = xcb_timestamp_t(XCB_CURRENT_TIME)
        let success = UInt8(XCB_GRAB_STATUS_SUCCESS.rawValue)
        if keyboardReply?.pointee.status == success { xcb_ungrab_keyboard(connection, time) }
        if pointerReply?.pointee.status == success { xcb_ungrab_pointer(connection, time) }
        return InputGrabs(keyboard: Self.held(keyboardReply?.pointee.status), pointer: Self.held(pointerReply?.pointee.status))
    }

    /// Discards the answers, unread.
    func discard(_ display: XDisplay) {
        xcb_discard_reply(display.connection, keyboard.sequence)
        xcb_discard_reply(display.connection, pointer.sequence)
    }

    private static func held(_ status: UInt8?) -> Bool {
        guard let status else { return true }
        return status == UInt8(XCB_GRAB_STATUS_ALREADY_GRABBED.rawValue) || status == UInt8(XCB_GRAB_STATUS_FROZEN.rawValue)
    }
}

extension XDisplay {
    /// Asks for the bounding shape of each of `windows`, without waiting.
    func askShapes(of windows: [xcb_window_t]) -> [xcb_shape_get_rectangles_cookie_t] {
        windows.map { xcb_shape_get_rectangles(connection, $0, UInt8(XCB_SHAPE_SK_BOUNDING.rawValue)) }
    }

    /// The answers to `askShapes`: each window's bounding rectangles, nil when it has no shape
    /// of its own (a single rectangle the size of the window) or the answer is missing.
    func shapes(_ questions: [xcb_shape_get_rectangles_cookie_t], sizes: [Size]) -> [[Rect]?] {
        zip(questions, sizes).map { question, size in
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            let reply = xcb_shape_get_rectangles_reply(connection, question, &error)
            defer {
                free(reply)
                free(error)
            }
            guard let reply, let first = xcb_shape_get_rectangles_rectangles(reply) else { return nil }
            let count = min(Int(xcb_shape_get_rectangles_rectangles_length(reply)), 4096)
            let rects = UnsafeBufferPointer(start: first, count: count).map {
                Rect(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height))
            }
            return rects == [Rect(x: 0, y: 0, width: size.width, height: size.height)] ? nil : rects
        }
    }
}
