import CX11
import Glibc
import XToastCore

/// Reads what the fullscreen rule (`Fullscreen`) needs from the window manager, and says which
/// X events may have changed it. Nothing here runs unless a toast's policy is `delay` or `drop`:
/// creating one costs nothing; each `covered(_:watching:)` costs two round trips.
///
/// To decide once: `covered(monitors)`. To wait for a monitor to be uncovered:
/// `covered(monitors, watching: mask)`, and again on each event for which `affects(_:)` is true
/// (once per batch of events drained). Watching asks for the events in the same requests as
/// the reads, each before what it guards, so no change between the two is missed.
public final class FullscreenWatch {
    private let display: XDisplay
    /// Clients and their frames whose events were asked for: not asked again while listed.
    private var watched: Set<UInt32> = []
    /// Clients and frames whose moves may change the answer: each monitor's deciding window,
    /// and every visible fullscreen window.
    private var deciding: Set<UInt32> = []
    /// Each client's parent, when the window manager put it in a frame.
    private var frames: [UInt32: UInt32] = [:]
    /// The snapshot `covered(_:watching:)` last read.
    public private(set) var last = DesktopSnapshot()

    /// Longest `_NET_WM_STATE` or `_NET_WM_WINDOW_TYPE` read, in atoms (EWMH defines 13 states;
    /// a hostile list is cut).
    static let stateLimit = 32

    public init(display: XDisplay) { self.display = display }

    /// The root's two questions (the stacking list, the active window), sent now so that their
    /// answers come with whatever is waited for next; `covered(_:asked:)` reads them.
    public func askRoot() -> RootQuestions {
        let root = xcb_window_t(truncatingIfNeeded: display.root)
        let ask = { (property: Atom, longs: Int) in
            xcb_get_property(
                self.display.connection, 0, root, xcb_atom_t(truncatingIfNeeded: property), xcb_atom_t(XCB_ATOM_WINDOW.rawValue), 0,
                UInt32(longs))
        }
        return RootQuestions(
            connection: display.connection, stacking: ask(display.atoms.clientListStacking, XDisplay.clientListLimit),
            active: ask(display.atoms.activeWindow, 1), clients: ask(display.atoms.clientList, XDisplay.clientListLimit))
    }

    /// Questions on their way; answers nobody took are discarded (an unread reply would stay
    /// in XCB's queue for ever).
    public final class RootQuestions {
        typealias Questions = (
            stacking: xcb_get_property_cookie_t, active: xcb_get_property_cookie_t, clients: xcb_get_property_cookie_t
        )
        private let connection: OpaquePointer
        private var questions: Questions?

        init(
            connection: OpaquePointer, stacking: xcb_get_property_cookie_t, active: xcb_get_property_cookie_t,
            clients: xcb_get_property_cookie_t
        ) {
            self.connection = connection
            questions = (stacking, active, clients)
        }

        /// The questions, once.
        func take() -> Questions? {
            defer { questions = nil }
            return questions
        }

        deinit {
            guard let questions else { return }
            xcb_discard_reply(connection, questions.stacking.sequence)
            xcb_discard_reply(connection, questions.active.sequence)
            xcb_discard_reply(connection, questions.clients.sequence)
        }
    }

    /// The event mask the root needs for the root's part of `affects(_:)`.
    public static let rootMask = PropertyChangeMask

    /// For each monitor, whether the window on top of it is fullscreen (a fresh `snapshot`).
    /// With `watching` (any mask: what the root gets is the union of what each part of xtoast
    /// listens to, `XDisplay.listenOnRoot`), the events `affects(_:)` looks at are asked for too:
    /// `rootMask` on the root; on every client, its state and structure, and its frame's
    /// structure. No round trip of their own.
    public func covered(_ monitors: [Rect], watching rootMask: Int? = nil, asked: RootQuestions? = nil) -> [Bool] {
        let snapshot = self.snapshot(watching: rootMask, asked: asked)
        last = snapshot
        deciding = []
        for monitor in monitors {
            if let window = Fullscreen.deciding(snapshot, on: monitor) { deciding.insert(window.id) }
        }
        for window in snapshot.stacking + snapshot.unordered + [snapshot.active].compactMap({ $0 })
        where window.isFullscreen && !window.isHidden {
            deciding.insert(window.id)
        }
        deciding.formUnion(deciding.compactMap { frames[$0] })
        return Fullscreen.covered(snapshot, monitors: monitors)
    }

    /// The stacking order and the active window, with each window's state, rectangle in root
    /// coordinates and whether it is viewable. Two round trips: the root's two properties, then
    /// five questions for every window, all at once. A window that died meanwhile, or any
    /// answer of the wrong type or format, leaves that window out; nothing blocks past the
    /// display's watchdog.
    public func snapshot(watching rootMask: Int? = nil, asked: RootQuestions? = nil) -> DesktopSnapshot {
        let connection = display.connection
        let atoms = display.atoms
        let root = xcb_window_t(truncatingIfNeeded: display.root)
        if rootMask != nil { display.listenOnRoot(Self.rootMask, as: .fullscreen) }
        func ask(_ window: xcb_window_t, _ property: Atom, _ type: xcb_atom_enum_t, _ longs: Int) -> xcb_get_property_cookie_t {
            xcb_get_property(
                connection, 0, window, xcb_atom_t(truncatingIfNeeded: property), xcb_atom_t(type.rawValue), 0, UInt32(longs))
        }
        // Asked ahead with the start-up's questions, the root's part costs no round trip of its
        // own (not when watching: the selection must come before the reads).
        let ahead = rootMask == nil ? asked?.take() : nil
        let stackingQuestion = ahead?.stacking ?? ask(root, atoms.clientListStacking, XCB_ATOM_WINDOW, XDisplay.clientListLimit)
        let activeQuestion = ahead?.active ?? ask(root, atoms.activeWindow, XCB_ATOM_WINDOW, 1)
        // The client list matters only without a stacking list, but is asked with it: no round
        // trip of its own.
        let clientsQuestion = ahead?.clients ?? ask(root, atoms.clientList, XCB_ATOM_WINDOW, XDisplay.clientListLimit)
        // A list longer than the limit is read up to it: garbage must not hide the real entries.
        var stackingIDs = display.cardinals(stackingQuestion, type: XCB_ATOM_WINDOW, cut: true) ?? []
        let activeID = display.cardinals(activeQuestion, type: XCB_ATOM_WINDOW)?.first ?? 0
        let clientIDs = display.cardinals(clientsQuestion, type: XCB_ATOM_WINDOW, cut: true) ?? []

        // A window listed twice keeps its upper place; the root is no client (a bogus list
        // naming it would cover every monitor).
        var seen: Set<UInt32> = [0, root]
        stackingIDs = stackingIDs.reversed().filter { seen.insert($0).inserted }.reversed()
        var ids = stackingIDs
        if !seen.contains(activeID) { ids.append(activeID) }
        let unorderedIDs = stackingIDs.isEmpty ? clientIDs.filter { seen.insert($0).inserted && $0 != activeID } : []
        ids += unorderedIDs

        let questions = ids.map { id in
            if rootMask != nil, !watched.contains(id) { select(id, UInt32(PropertyChangeMask | StructureNotifyMask)) }
            return (
                state: ask(id, atoms.wmState, XCB_ATOM_ATOM, Self.stateLimit),
                type: ask(id, atoms.windowType, XCB_ATOM_ATOM, Self.stateLimit),
                geometry: xcb_get_geometry(connection, id),
                position: xcb_translate_coordinates(connection, id, root, 0, 0),
                attributes: xcb_get_window_attributes(connection, id),
                tree: xcb_query_tree(connection, id)
            )
        }
        var windows: [UInt32: ClientWindow] = [:]
        frames = [:]
        for (id, question) in zip(ids, questions) {
            // Every answer is read (and freed), whatever the others said.
            let state = display.cardinals(question.state, type: XCB_ATOM_ATOM, cut: true) ?? []
            let types = display.cardinals(question.type, type: XCB_ATOM_ATOM, cut: true) ?? []
            let size = reply(xcb_get_geometry_reply(connection, question.geometry, nil)) { ($0.width, $0.height) }
            let origin = reply(xcb_translate_coordinates_reply(connection, question.position, nil)) {
                $0.same_screen != 0 ? ($0.dst_x, $0.dst_y) : nil
            }
            let viewable = reply(xcb_get_window_attributes_reply(connection, question.attributes, nil)) {
                $0.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue)
            }
            let parent = reply(xcb_query_tree_reply(connection, question.tree, nil)) { $0.parent }
            guard let size, let origin, let viewable else { continue }
            if let parent, parent != root, parent != 0 {
                frames[id] = parent
                // After the reads: a frame unmapped in between is missed, but the window
                // manager's own properties (current desktop, state) change with it.
                if rootMask != nil, !watched.contains(parent) { select(parent, UInt32(StructureNotifyMask)) }
            }
            let has = { (atom: Atom) in atom != 0 && state.contains(UInt32(truncatingIfNeeded: atom)) }
            windows[id] = ClientWindow(
                id: id, frame: Rect(x: Int(origin.0), y: Int(origin.1), width: Int(size.0), height: Int(size.1)),
                isFullscreen: has(atoms.wmStateFullscreen), isHidden: has(atoms.wmStateHidden) || !viewable,
                isMaximized: has(atoms.wmStateMaximizedVert) && has(atoms.wmStateMaximizedHorz),
                isDesktop: atoms.windowTypeDesktop != 0 && types.contains(UInt32(truncatingIfNeeded: atoms.windowTypeDesktop)))
        }
        // Only the windows listed now are remembered: a long wait beside windows that come
        // and go keeps no more than one list's worth.
        if rootMask != nil { watched = Set(ids).union(frames.values) }
        return DesktopSnapshot(
            stacking: stackingIDs.compactMap { windows[$0] }, active: windows[activeID],
            unordered: (unorderedIDs + [activeID]).compactMap { windows[$0] })
    }

    /// Whether `event` may have changed which monitors are covered: the root's stacking list,
    /// active window or current desktop; a watched client's `_NET_WM_STATE`; a watched window
    /// mapped, unmapped, destroyed or reparented; a deciding window moved or resized (other
    /// windows' moves are passed over: a drag would ask again at every step).
    public func affects(_ event: XEvent) -> Bool {
        let atoms = display.atoms
        switch event.type {
        case PropertyNotify:
            let property = event.xproperty
            if property.window == display.root {
                return [atoms.clientListStacking, atoms.activeWindow, atoms.currentDesktop, atoms.clientList].contains(property.atom)
            }
            return property.atom == atoms.wmState && isWatched(property.window)
        case ConfigureNotify: return isIn(deciding, event.xconfigure.window)
        case MapNotify: return isWatched(event.xmap.window)
        case UnmapNotify: return isWatched(event.xunmap.window)
        case DestroyNotify: return isWatched(event.xdestroywindow.window)
        case ReparentNotify: return isWatched(event.xreparent.window)
        default: return false
        }
    }

    /// Asks for `mask`'s events on `window` through XCB, so that the request goes out in order
    /// with the reads (Xlib's requests wait in its own buffer). A window gone by then causes a
    /// protocol error, which `XDisplay` collects.
    private func select(_ window: xcb_window_t, _ mask: UInt32) {
        var value = mask
        xcb_change_window_attributes(display.connection, window, UInt32(XCB_CW_EVENT_MASK.rawValue), &value)
    }

    private func isWatched(_ window: Window) -> Bool { isIn(watched, window) }

    private func isIn(_ set: Set<UInt32>, _ window: Window) -> Bool {
        window <= UInt(UInt32.max) && set.contains(UInt32(window))
    }

    /// `body` applied to an XCB reply, which is then freed; nil when there is none (an error).
    private func reply<R, T>(_ reply: UnsafeMutablePointer<R>?, _ body: (R) -> T?) -> T? {
        guard let reply else { return nil }
        defer { free(reply) }
        return body(reply.pointee)
    }
}
