import CX11
import CXComposite
import Foundation

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A second X client that watches what xtoast does: it sees windows appear, move and vanish
/// through `SubstructureNotify` on the root, so tests wait for X events instead of sleeping.
final class XWatcher {
    let display: OpaquePointer
    let root: Window
    let name: String

    init(display name: String) throws {
        guard let display = XOpenDisplay(name) else { throw TestFailure("cannot open display \(name)") }
        self.display = display
        self.name = name
        root = XDefaultRootWindow(display)
        // Windows of other clients vanish at any moment: a failed query returns nothing here
        // instead of Xlib's default, which ends the whole test process.
        XSetErrorHandler { _, _ in 0 }
        XSelectInput(display, root, SubstructureNotifyMask)
        XSync(display, 0)
    }

    deinit { XCloseDisplay(display) }

    /// The next event, or nil if none arrives within `timeout` seconds.
    func nextEvent(timeout: Double) -> XEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        var event = XEvent()
        while true {
            if XPending(display) > 0 {
                XNextEvent(display, &event)
                return event
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var fd = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(left * 1000) + 1)
        }
    }

    /// Waits for `count` xtoast windows to be mapped; returns them in the order they mapped.
    /// `orGone` counts a toast destroyed before its map was read (`vanished`): only for a test
    /// that discarded the events of the toasts before.
    func waitForToasts(count: Int = 1, timeout: Double = 10, orGone: Bool = false) throws -> [Window] {
        var found: [Window] = []
        let deadline = Date().addingTimeInterval(timeout)
        while found.count < count {
            guard let event = nextEvent(timeout: deadline.timeIntervalSinceNow) else {
                throw TestFailure("no xtoast window mapped within \(timeout) s (saw \(found.count) of \(count))")
            }
            if event.type == MapNotify, isToast(event.xmap.window) || (orGone && vanished(event.xmap)) { found.append(event.xmap.window) }
        }
        return found
    }

    /// Waits until `window` is destroyed; returns the seconds it took, or throws after `timeout`.
    @discardableResult
    func waitForDestroy(_ window: Window, timeout: Double = 15) throws -> Double {
        let start = Date()
        let deadline = start.addingTimeInterval(timeout)
        while true {
            guard let event = nextEvent(timeout: deadline.timeIntervalSinceNow) else {
                throw TestFailure("window 0x\(String(window, radix: 16)) still exists after \(timeout) s")
            }
            if event.type == DestroyNotify, event.xdestroywindow.window == window {
                return Date().timeIntervalSince(start)
            }
        }
    }

    func isToast(_ window: Window) -> Bool { classHint(window)?.name == "xtoast" }

    /// Whether a mapped window was a toast gone before it could be looked at: override-redirect
    /// (as toasts are) and destroyed already. A toast held for a millisecond (notify-send's
    /// `-t 1`) can end before a loaded test process reads the map's event.
    private func vanished(_ map: XMapEvent) -> Bool { map.override_redirect != 0 && attributes(map.window) == nil }

    func classHint(_ window: Window) -> (name: String, cls: String)? {
        var hint = XClassHint()
        guard XGetClassHint(display, window, &hint) != 0 else { return nil }
        defer {
            XFree(hint.res_name)
            XFree(hint.res_class)
        }
        return (String(cString: hint.res_name), String(cString: hint.res_class))
    }

    func attributes(_ window: Window) -> XWindowAttributes? {
        var attributes = XWindowAttributes()
        return XGetWindowAttributes(display, window, &attributes) != 0 ? attributes : nil
    }

    /// The window's rectangle relative to the root.
    func geometry(_ window: Window) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let a = attributes(window) else { return nil }
        return (Int(a.x), Int(a.y), Int(a.width), Int(a.height))
    }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    func atomName(_ atom: Atom) -> String {
        guard let name = XGetAtomName(display, atom) else { return "?" }
        defer { XFree(name) }
        return String(cString: name)
    }

    /// A format-32 property (atoms, windows, cardinals) as numbers; empty when absent.
    func longs(_ window: Window, _ property: String, type: Atom, limit: Int = 1024) -> [UInt] {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(display, window, atom(property), 0, limit, 0, type, &actualType, &format, &count, &remaining, &data)
                == Success,
            let data, format == 32
        else { return [] }
        defer { XFree(data) }
        // Format-32 data arrives as C longs.
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
    }

    /// A property holding atoms, as their names.
    func atomList(_ window: Window, _ property: String) -> [String] {
        longs(window, property, type: Atom(XA_ATOM), limit: 64).map(atomName)
    }

    /// The rectangles of the window's bounding shape (one rectangle when unshaped).
    func boundingShape(_ window: Window) -> [XRectangle] {
        var count: Int32 = 0
        var ordering: Int32 = 0
        guard let rects = XShapeGetRectangles(display, window, ShapeBounding, &count, &ordering) else { return [] }
        defer { XFree(rects) }
        return Array(UnsafeBufferPointer(start: rects, count: Int(count)))
    }

    /// How far the bounding shape's top row starts from the window's left edge: the rounded
    /// corner's cut (0 when unshaped).
    func topRowInset(_ window: Window) -> Int {
        Int(boundingShape(window).filter { $0.y == 0 }.map(\.x).min() ?? 0)
    }

    /// The root's children, bottom to top.
    func stackingOrder() -> [Window] {
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return Array(UnsafeBufferPointer(start: children, count: Int(count)))
    }

    /// Every mapped xtoast window on the display.
    func mappedToasts() -> [Window] {
        stackingOrder().filter { isToast($0) && attributes($0)?.map_state == IsViewable }
    }

    /// An ordinary (managed-style) window, mapped on top of everything.
    func mapPlainWindow(_ rect: (x: Int, y: Int, width: Int, height: Int)) -> Window {
        let window = XCreateSimpleWindow(
            display, root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), 0, 0, 0xffffff)
        XMapRaised(display, window)
        XSync(display, 0)
        return window
    }

    /// Whether a compositing manager owns `_NET_WM_CM_S0`.
    var compositorRunning: Bool { XGetSelectionOwner(display, atom("_NET_WM_CM_S0")) != 0 }
}

extension XWatcher {
    /// Waits until a compositor owns (or no longer owns) `_NET_WM_CM_S0`, watching the
    /// selection with XFixes rather than polling.
    func waitForCompositor(running: Bool, timeout: Double = 10) throws {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard XFixesQueryExtension(display, &eventBase, &errorBase) != 0 else { throw TestFailure("no XFIXES extension") }
        let mask = XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask | XFixesSelectionClientCloseNotifyMask
        XFixesSelectSelectionInput(display, root, atom("_NET_WM_CM_S0"), UInt(mask))
        XSync(display, 0)
        let deadline = Date().addingTimeInterval(timeout)
        while compositorRunning != running {
            guard nextEvent(timeout: deadline.timeIntervalSinceNow) != nil || Date() < deadline else {
                throw TestFailure("the compositor did not \(running ? "start" : "stop") within \(timeout) s")
            }
        }
        guard running else { return }
        // picom owns the selection some 90 ms before it redirects the screen; a toast mapped in
        // between is drawn by the server, without the compositor's shadow, until it does. There
        // is no event for the redirection: the tests' one poll looks for it.
        let probe = mapProbe()
        defer { destroyProbe(probe) }
        try waitUntil("the compositor redirecting the screen", timeout: max(deadline.timeIntervalSinceNow, 0), interval: 0.002) {
            isRedirected(probe)
        }
    }

    /// A 1×1 override-redirect window off the screen's corner, for `isRedirected`.
    private func mapProbe() -> Window {
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        let probe = XCreateWindow(
            display, root, -1, -1, 1, 1, 0, Int32(CopyFromParent), UInt32(InputOutput), nil, UInt(CWOverrideRedirect), &attributes)
        XMapWindow(display, probe)
        XSync(display, 0)
        return probe
    }

    /// Whether `window` is redirected: only then does Composite name a pixmap of it (otherwise
    /// the request fails, the pixmap does not exist, and asking its size fails too).
    private func isRedirected(_ window: Window) -> Bool {
        let pixmap = XCompositeNameWindowPixmap(display, window)
        var (rootReturn, x, y, width, height, border, depth): (Window, Int32, Int32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0, 0, 0)
        guard XGetGeometry(display, pixmap, &rootReturn, &x, &y, &width, &height, &border, &depth) != 0 else { return false }
        XFreePixmap(display, pixmap)
        return true
    }

    /// Destroys the probe and forgets what the root told about it, so that no test counts it.
    private func destroyProbe(_ probe: Window) {
        XDestroyWindow(display, probe)
        XSync(display, 0)
        var event = XEvent()
        var window = probe
        while XCheckIfEvent(display, &event, aboutWindow, &window) != 0 {}
    }
}

/// `XCheckIfEvent`'s test: whether a notification from the root is about the window `argument`
/// points to. Create, map, unmap, configure and destroy notifications all hold it second.
private func aboutWindow(_: OpaquePointer?, _ event: UnsafeMutablePointer<XEvent>?, _ argument: XPointer?) -> Int32 {
    guard let event, [CreateNotify, MapNotify, UnmapNotify, ConfigureNotify, DestroyNotify].contains(event.pointee.type) else {
        return 0
    }
    let window = argument?.withMemoryRebound(to: Window.self, capacity: 1) { $0.pointee }
    return event.pointee.xmap.window == window ? 1 : 0
}

extension XWatcher {
    /// The `_NET_WM_PID` of a window, nil if it has none (or is gone).
    func pid(_ window: Window) -> Int32? {
        longs(window, "_NET_WM_PID", type: Atom(XA_CARDINAL), limit: 1).first.map { Int32(truncatingIfNeeded: $0) }
    }

    /// What happened to toast windows, in order: (pid, mapped or destroyed, when).
    struct ToastEvent {
        var pid: Int32
        var mapped: Bool
        var time: Date
    }

    /// Records toast maps and destroys until `until` says stop or `timeout` passes.
    ///
    /// The toasts of the processes queued at the start are known by their tickets, which live
    /// as long as the processes: no question is asked about a window as it shows, which on a
    /// loaded machine may come after a short toast has gone. Others are asked as they map.
    func recordToasts(timeout: Double, until done: ([ToastEvent]) -> Bool) throws -> [ToastEvent] {
        let queued = queuedProcesses()
        var events: [ToastEvent] = []
        var pids: [Window: Int32] = [:]
        let deadline = Date().addingTimeInterval(timeout)
        while !done(events) {
            guard let event = nextEvent(timeout: deadline.timeIntervalSinceNow) else {
                throw TestFailure("timed out after \(timeout) s with \(events.count) toast events")
            }
            if event.type == MapNotify,
                let pid = queued[client(of: event.xmap.window)] ?? (isToast(event.xmap.window) ? pid(event.xmap.window) : nil)
            {
                pids[event.xmap.window] = pid
                events.append(ToastEvent(pid: pid, mapped: true, time: Date()))
            } else if event.type == DestroyNotify, let pid = pids.removeValue(forKey: event.xdestroywindow.window) {
                events.append(ToastEvent(pid: pid, mapped: false, time: Date()))
            }
        }
        return events
    }

    /// The bits of a resource id that name the client that made it: a toast's window and its
    /// ticket come from one connection, so they share them.
    func client(of window: Window) -> UInt {
        guard let connection = XGetXCBConnection(display) else { return UInt(window) }
        return UInt(window) & ~UInt(xcb_get_setup(connection).pointee.resource_id_mask)
    }

    /// The process of each ticket in `_XTOAST_QUEUE`, by its client (`client(of:)`).
    func queuedProcesses() -> [UInt: Int32] {
        var found: [UInt: Int32] = [:]
        for entry in queue() {
            let fields = ticketText(entry).split(separator: "\n")
            if let pid = fields.first(where: { $0.hasPrefix("pid=") }).flatMap({ Int32($0.dropFirst(4)) }) {
                found[client(of: Window(entry))] = pid
            }
        }
        return found
    }

    /// Listens to the root's property changes too (for `waitForChanges`): called before what
    /// writes them starts, as a change before the call sends no event.
    func watchRootProperties() {
        XSelectInput(display, root, SubstructureNotifyMask | PropertyChangeMask)
        XSync(display, 0)
    }

    /// Waits for `count` writes (or deletions) of the root property `name` since
    /// `watchRootProperties`. Counting events misses none, where reading the property after
    /// each may find a later state than the one the event was for.
    func waitForChanges(of name: String, count: Int, timeout: Double = 10) throws {
        let property = atom(name)
        let deadline = Date().addingTimeInterval(timeout)
        var seen = 0
        while seen < count {
            guard let event = nextEvent(timeout: deadline.timeIntervalSinceNow) else {
                throw TestFailure("\(name) changed \(seen) times, not \(count), within \(timeout) s")
            }
            if event.type == PropertyNotify, event.xproperty.window == root, event.xproperty.atom == property { seen += 1 }
        }
    }

    /// Writes a root window property, as any other client could.
    func setRootProperty(_ name: String, type: Atom, format: Int32, bytes: [UInt8], count: Int) {
        XChangeProperty(display, root, atom(name), type, format, PropModeReplace, bytes, Int32(count))
        XSync(display, 0)
    }
}

extension XWatcher {
    /// A ticket's `_XTOAST_TICKET` text; empty when it has none.
    func ticketText(_ window: UInt) -> String {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(
                display, Window(window), atom("_XTOAST_TICKET"), 0, 1024, 0, atom("UTF8_STRING"), &type, &format, &count, &remaining,
                &data) == Success, let data
        else { return "" }
        defer { XFree(data) }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }

    /// The ticket window of xtoast process `pid`, if it has one now (tickets are children of
    /// the root, like toasts).
    func ticket(of pid: Int32) -> Window? {
        let field = "pid=\(pid)"
        return stackingOrder().first { ticketText(UInt($0)).split(separator: "\n").contains { $0 == field } }
    }

    /// Waits until xtoast process `pid` says its toast's first frame is out: it writes
    /// `_XTOAST_SHOWN` on its ticket then, after the frame's drawing requests (the protocol).
    /// Without a compositor the pixels are on screen by then; a compositor shows them a frame
    /// or so later. Returns the ticket.
    @discardableResult
    func waitForShown(pid: Int32, timeout: Double = 10) throws -> Window {
        let deadline = Date().addingTimeInterval(timeout)
        var ticket: Window?
        while true {
            if ticket == nil, let found = self.ticket(of: pid) {
                // Selected before the property is read (the read is a round trip after it): a
                // write after the read still wakes us.
                XSelectInput(display, found, PropertyChangeMask)
                ticket = found
            }
            if let ticket, !longs(ticket, "_XTOAST_SHOWN", type: Atom(XA_CARDINAL), limit: 5).isEmpty { return ticket }
            // A ticket not there yet comes with a CreateNotify on the root, a write with a PropertyNotify.
            guard nextEvent(timeout: deadline.timeIntervalSinceNow) != nil else {
                throw TestFailure("process \(pid) did not say its toast was shown within \(timeout) s")
            }
        }
    }

    /// Records the tags of toasts as their first frames come out (`_XTOAST_SHOWN` on their
    /// tickets), in that order, for tags that `matching` takes, until `count` are out. Each
    /// window created from now on is listened to before its properties are read: a write
    /// after the read still comes as an event. `then` gets each recorded toast's ticket text.
    func recordShownTags(count: Int, timeout: Double, matching: (String) -> Bool, then: (String) -> Void = { _ in }) throws -> [String] {
        var shown: [String] = []
        var done: Set<Window> = []
        var tags: [Window: String] = [:]
        let deadline = Date().addingTimeInterval(timeout)
        func look(at window: Window) {
            guard !done.contains(window) else { return }
            if tags[window] == nil,
                let tag = ticketText(UInt(window)).split(separator: "\n").first(where: { $0.hasPrefix("tag=") })?.dropFirst(4)
            {
                tags[window] = String(tag)
            }
            guard let tag = tags[window] else { return }
            guard matching(tag) else {
                done.insert(window)
                return
            }
            if !longs(window, "_XTOAST_SHOWN", type: Atom(XA_CARDINAL), limit: 5).isEmpty {
                shown.append(tag)
                done.insert(window)
                then(ticketText(UInt(window)))
            }
        }
        while shown.count < count {
            guard let event = nextEvent(timeout: deadline.timeIntervalSinceNow) else {
                throw TestFailure("\(shown.count) of \(count) toasts shown within \(timeout) s: \(shown)")
            }
            if event.type == CreateNotify {
                XSelectInput(display, event.xcreatewindow.window, PropertyChangeMask)
                look(at: event.xcreatewindow.window)
            } else if event.type == PropertyNotify {
                look(at: event.xproperty.window)
            } else if event.type == DestroyNotify {
                // The server gives a gone client's ids to the next one: a new ticket can have
                // the id of one recorded already.
                done.remove(event.xdestroywindow.window)
                tags[event.xdestroywindow.window] = nil
            }
        }
        return shown
    }
}
