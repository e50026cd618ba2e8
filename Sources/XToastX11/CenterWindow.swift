import CCairo
import CX11
import Glibc
import XToastCore
import XToastRender

/// The notification centre's window (`xtoast --center`): override-redirect, at the right of
/// the pointer's monitor, clear of its panels. It is the one window of xtoast that takes the
/// keyboard, and the pointer too while it is open, so that a click outside closes it as a
/// menu's would. A second `xtoast --center` finds it by its selection and closes it: one key
/// opens and closes it.
public final class CenterWindow {
    /// What the window heard, for the centre.
    public enum Input: Sendable {
        case center(Center.Event)
        /// Part of it must be drawn again.
        case expose
        /// Another `xtoast --center` asked it to close.
        case closeAsked
        /// The pause on the root changed (`--pause`, `--resume`, another centre).
        case pauseChanged
        /// Who holds notifications changed, or the service that said so went (see `inhibited`).
        case inhibitedChanged
    }

    public let display: XDisplay
    public let window: Window
    public let painter: CenterPainter
    private let colormap: Colormap
    private let surface: CairoSurface
    private let composited: Bool
    private let selection: Atom
    private let closeMessage: Atom
    /// The X server time of the last key or click: the activated application's window may take
    /// the focus with it.
    public private(set) var lastEventTime: UInt32 = 0
    /// The notification service's window that says who holds notifications, followed for its
    /// end; 0: none.
    private var inhibitor: Window = 0

    /// The selection of the open centre on `display`'s screen.
    private static func selection(on display: XDisplay) -> Atom {
        XInternAtom(display.pointer, "_XTOAST_CENTER_S\(display.screen)", 0)
    }

    /// Asks the centre open on `display`, if there is one, to close; whether there was one.
    public static func closeOpenOne(on display: XDisplay) -> Bool {
        let owner = XGetSelectionOwner(display.pointer, selection(on: display))
        guard owner != 0 else { return false }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = owner
        event.xclient.message_type = XInternAtom(display.pointer, "_XTOAST_CENTER", 0)
        event.xclient.format = 32
        _ = display.trapErrors {
            XSendEvent(display.pointer, owner, 0, 0, &event)
            XSync(display.pointer, 0)
        }
        return true
    }

    /// Makes (but does not map) the window for `painter` at `origin`, and takes the selection
    /// that says a centre is open.
    public init(display: XDisplay, painter: CenterPainter, origin: Point) throws(X11Error) {
        self.display = display
        self.painter = painter
        let dpy = display.pointer
        composited = display.compositorIsRunning()
        // Per-pixel alpha (rounded corners, a translucent background) only where a compositor
        // blends it; without one, the server's own visual and an opaque box.
        let (visual, depth) = display.visual(alpha: composited)
        colormap = XCreateColormap(dpy, display.root, visual, AllocNone)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.colormap = colormap
        attributes.border_pixel = 0
        attributes.background_pixel = 0
        attributes.event_mask = ExposureMask | KeyPressMask | ButtonPressMask | StructureNotifyMask
        let size = painter.size
        window = XCreateWindow(
            dpy, display.root, Int32(origin.x), Int32(origin.y), UInt32(size.width), UInt32(size.height), 0, depth, UInt32(InputOutput),
            visual, UInt(CWOverrideRedirect | CWColormap | CWBorderPixel | CWBackPixel | CWEventMask), &attributes)
        guard window != 0 else {
            XFreeColormap(dpy, colormap)
            throw .cannotCreateWindow("XCreateWindow failed")
        }
        guard let created = cairo_xlib_surface_create(dpy, window, visual, Int32(size.width), Int32(size.height)),
            let surface = try? CairoSurface(taking: created, size: size, what: "cannot draw on the window")
        else {
            XDestroyWindow(dpy, window)
            XFreeColormap(dpy, colormap)
            throw .cannotCreateWindow("cannot draw on the window")
        }
        self.surface = surface
        selection = Self.selection(on: display)
        closeMessage = XInternAtom(dpy, "_XTOAST_CENTER", 0)
        setProperties()
        XSetSelectionOwner(dpy, selection, window, UInt(CurrentTime))
    }

    deinit {
        XDestroyWindow(display.pointer, window)
        XFreeColormap(display.pointer, colormap)
        XSync(display.pointer, 0)
    }

    /// Its names and type, for a compositor's rules and for tools that list windows.
    private func setProperties() {
        let dpy = display.pointer
        XStoreName(dpy, window, "xtoast centre")
        var hint = XClassHint()
        "xtoast-center".withCString { name in
            "xtoast".withCString { className in
                hint.res_name = UnsafeMutablePointer(mutating: name)
                hint.res_class = UnsafeMutablePointer(mutating: className)
                XSetClassHint(dpy, window, &hint)
            }
        }
        let type = XInternAtom(dpy, "_NET_WM_WINDOW_TYPE_DIALOG", 0)
        display.setListProperty(window, display.atoms.windowType, type: Atom(XA_ATOM), [UInt(type)])
        display.setListProperty(window, display.atoms.wmPid, type: Atom(XA_CARDINAL), [UInt(getpid())])
    }

    /// Maps it above everything and takes the keyboard and the pointer. A window manager's key
    /// binding that started us holds the keyboard until its key comes up: the grab is tried
    /// again for up to a second (as dmenu does). Whether the keyboard is ours.
    public func open() -> Bool {
        let dpy = display.pointer
        display.listenOnRoot(PropertyChangeMask, as: .center)
        XMapRaised(dpy, window)
        XSync(dpy, 0)
        let keyboard = display.grabKeyboard(for: window, ownerEvents: true)
        // Clicks outside come to us (owner events: inside, as usual) so that one closes it.
        _ = XGrabPointer(
            dpy, window, 1, UInt32(ButtonPressMask), GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
        XSync(dpy, 0)
        return keyboard
    }

    /// Lets go of the keyboard and the pointer and unmaps it: before an application is told of a
    /// press, so that its window may take the focus.
    public func close() {
        let dpy = display.pointer
        XUngrabKeyboard(dpy, UInt(CurrentTime))
        XUngrabPointer(dpy, UInt(CurrentTime))
        XUnmapWindow(dpy, window)
        XSync(dpy, 0)
    }

    /// Draws `center` at `now` (wall clock), all of it at once (a group, then one paint: no
    /// frame shows half drawn), and says so on the window (`_XTOAST_SHOWN`) after the first.
    public func draw(_ center: Center, now: Int) {
        let cr = cairo_create(surface.pointer)!
        cairo_push_group(cr)
        painter.draw(center, into: cr, now: now, opaque: !composited)
        cairo_pop_group_to_source(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface.pointer)
        display.setListProperty(window, display.atoms.shown, type: Atom(XA_CARDINAL), [1])
        XFlush(display.pointer)
    }

    /// Every event waiting, as the centre's inputs (clicks found on `center` as drawn).
    public func takeInputs(_ center: Center) -> [Input] {
        var inputs: [Input] = []
        while XPending(display.pointer) > 0 {
            var event = XEvent()
            XNextEvent(display.pointer, &event)
            switch event.type {
            case Expose where event.xexpose.count == 0: inputs.append(.expose)
            case KeyPress:
                lastEventTime = UInt32(truncatingIfNeeded: event.xkey.time)
                let keysym = XLookupKeysym(&event.xkey, 0)
                if let key = Center.Key(keysym: UInt(keysym), shift: event.xkey.state & UInt32(ShiftMask) != 0) {
                    inputs.append(.center(.key(key)))
                }
            case ButtonPress:
                lastEventTime = UInt32(truncatingIfNeeded: event.xbutton.time)
                inputs += button(event.xbutton, center)
            case ClientMessage where event.xclient.message_type == closeMessage: inputs.append(.closeAsked)
            case PropertyNotify where event.xproperty.window == display.root && event.xproperty.atom == display.atoms.paused:
                inputs.append(.pauseChanged)
            case PropertyNotify where event.xproperty.window == display.root && event.xproperty.atom == display.atoms.inhibited:
                inputs.append(.inhibitedChanged)
            case DestroyNotify where inhibitor != 0 && event.xdestroywindow.window == inhibitor:
                inputs.append(.inhibitedChanged)
            case SelectionClear where event.xselectionclear.selection == selection: inputs.append(.closeAsked)
            default: break
            }
        }
        return inputs
    }

    /// Who holds notifications now (see `Inhibited`); the service's window is followed, so that
    /// its end (the service's death) comes as `.inhibitedChanged`, as a change on the root does.
    public func inhibited() -> Inhibited? {
        display.inhibited { found in
            // A pointer to our own window would take its events away: nobody's it is.
            let next = found.flatMap { $0 == window ? nil : $0 } ?? 0
            guard next != inhibitor else { return }
            if inhibitor != 0 { display.listen(on: inhibitor, 0) }
            if next != 0 { display.listen(on: next, UInt32(StructureNotifyMask)) }
            inhibitor = next
        }
    }

    /// Whether events wait in Xlib's queue (read off the socket during a round trip).
    public var hasInputs: Bool { XPending(display.pointer) > 0 }

    private func button(_ event: XButtonEvent, _ center: Center) -> [Input] {
        switch event.button {
        case UInt32(Button4): return [.center(.scroll(-1))]
        case UInt32(Button5): return [.center(.scroll(1))]
        case UInt32(Button1):
            // Outside, the grab reports it relative to our window all the same: the painter
            // finds it outside.
            return [.center(.click(painter.hit(at: Point(x: Int(event.x), y: Int(event.y)), in: center)))]
        default: return []
        }
    }
}
