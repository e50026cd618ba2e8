import CX11
import Glibc
import XToastCore

/// The keyboard while a toast's reply entry is open (`Session`'s `takeKeyboard`): grabbed on the
/// toast's first window, and its keys read as text through the X input method, so that compose
/// sequences and every layout type what they type. Made only when an entry opens: nothing of it
/// is on a toast's start-up path.
final class ReplyKeyboard {
    private let display: XDisplay
    private let window: Window
    private var method: XIM?
    private var context: XIC?

    /// Grabs the keyboard for `window` (`XDisplay.grabKeyboard`: a key binding that pressed
    /// the button, `xtoast --press`, holds it until its key comes up); nil when another client
    /// keeps it.
    init?(display: XDisplay, window: Window) {
        self.display = display
        self.window = window
        // Not owner events: every key comes to this window, whichever of ours the pointer is over.
        guard display.grabKeyboard(for: window, ownerEvents: false) else { return nil }
        openInputMethod()
    }

    /// The user's locale's input method, without a server of its own (`@im=none`: an IBus or
    /// fcitx that does not answer must not hang the toast); compose sequences still work.
    private func openInputMethod() {
        if setlocale(LC_CTYPE, "") == nil || XSupportsLocale() == 0 { setlocale(LC_CTYPE, "C.UTF-8") }
        guard XSupportsLocale() != 0 else { return }
        _ = XSetLocaleModifiers("@im=none")
        method = XOpenIM(display.pointer, nil, nil, nil)
        guard let method else { return }
        context = xtoast_create_ic(method, window)
        if let context { XSetICFocus(context) }
    }

    /// Gives the keyboard back.
    func release() {
        if let context { XDestroyIC(context) }
        if let method { XCloseIM(method) }
        (context, method) = (nil, nil)
        XUngrabKeyboard(display.pointer, UInt(CurrentTime))
        XFlush(display.pointer)
    }

    /// A key typed into the entry, from a key event on our window; nil for anything else (and
    /// for a key the input method keeps, part of a compose sequence).
    func translate(_ event: inout XEvent) -> ReplyKey? {
        // A layout switched, or a key remapped (`xdotool type` maps the characters it lacks):
        // the keys read from now on are read with the new map.
        if event.type == MappingNotify {
            XRefreshKeyboardMapping(&event.xmapping)
            return nil
        }
        guard event.type == KeyPress || event.type == KeyRelease, event.xkey.window == window else { return nil }
        if context != nil, XFilterEvent(&event, 0) != 0 { return nil }
        guard event.type == KeyPress else { return nil }
        var buffer = [CChar](repeating: 0, count: 64)
        var keysym: KeySym = 0
        var count: Int32
        if let context {
            var status: Int32 = 0
            count = Xutf8LookupString(context, &event.xkey, &buffer, Int32(buffer.count - 1), &keysym, &status)
            if status == XBufferOverflow || status == XLookupNone || status == XLookupKeySym { count = 0 }
        } else {
            // Without an input method the text is the keysym's own (`ReplyKey(keysym:)`).
            _ = XLookupString(&event.xkey, &buffer, Int32(buffer.count - 1), &keysym, nil)
            count = 0
        }
        let text = String(decoding: buffer.prefix(Int(max(count, 0))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ReplyKey(keysym: UInt(keysym), control: event.xkey.state & UInt32(ControlMask) != 0, text: text)
    }
}
