import CX11
import Glibc
import XToastCore

/// The questions about docks and panels that go out with the monitors' (see `askPanels`).
struct PanelQuestions {
    fileprivate let clientList: xcb_get_property_cookie_t
    fileprivate let workArea: xcb_get_property_cookie_t
    fileprivate let currentDesktop: xcb_get_property_cookie_t
    fileprivate let rootChildren: xcb_query_tree_cookie_t
}

private struct StrutQuestion {
    var partial: xcb_get_property_cookie_t
    var full: xcb_get_property_cookie_t
}

/// What `Coverage` needs of one window, asked with its struts.
private struct WindowQuestion {
    var window: xcb_window_t
    var attributes: xcb_get_window_attributes_cookie_t
    var geometry: xcb_get_geometry_cookie_t
    var position: xcb_translate_coordinates_cookie_t
    var type: xcb_get_property_cookie_t
}

/// The docks' struts, asked and not yet read. A dock is a window in the client list or a child
/// of the root (no window manager, or one that does not reparent docks): their struts go out
/// together with the question for the root's children's children, and travel while xtoast does
/// other things (joins the queue), to be read when the toast is placed. A window manager that
/// puts docks in frames and leaves them out of its list (i3) costs one round trip more: the
/// frames' children's struts, asked only when no strut was found the first time. Answers never
/// read are thrown away.
///
/// The facts `Coverage` reads (what covers a monitor, what is in the way without a strut) go out
/// with the struts, for every client and child of the root, and so do the screen saver's state
/// and whether another client holds the input (`InputProbe`): the lock question adds no round
/// trip of its own (issue #22), but for the shape of a window that may lock a monitor while
/// another client holds the input, asked only then (issue #28).
final class PendingPanels {
    private let display: XDisplay
    private let clients: [xcb_window_t]
    private let children: [xcb_window_t]
    private let workArea: Rect?
    private let windows: [xcb_window_t]
    private let questions: [StrutQuestion]
    private let facts: [WindowQuestion]
    private let frames: [xcb_query_tree_cookie_t]
    private let screenSaver: UInt32
    private let input: InputProbe
    private var answer: Panels?

    /// Reads the answers to `askPanels` and asks for the struts (no wait).
    init(display: XDisplay, _ asked: PanelQuestions) {
        self.display = display
        clients = display.cardinals(asked.clientList, type: XCB_ATOM_WINDOW, cut: true) ?? []
        let areas = display.cardinals(asked.workArea, type: XCB_ATOM_CARDINAL, cut: true) ?? []
        let desktop = display.cardinals(asked.currentDesktop, type: XCB_ATOM_CARDINAL)?.first.map(Int.init) ?? 0
        if desktop >= 0, desktop < XDisplay.desktopLimit, areas.count >= 4 * (desktop + 1) {
            let v = areas[(4 * desktop)..<(4 * desktop + 4)].map(Int.init)
            workArea = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        } else {
            workArea = nil
        }
        children = Array(display.windows(asked.rootChildren).prefix(XDisplay.clientListLimit))
        windows = Array(Set(clients + children))
        questions = display.askStruts(of: windows)
        facts = display.askFacts(of: windows)
        frames = children.map { xcb_query_tree(display.connection, $0) }
        screenSaver = LockWatch.askScreenSaver(display)
        input = InputProbe(display)
    }

    deinit {
        guard answer == nil else { return }
        let connection = display.connection
        for question in questions {
            xcb_discard_reply(connection, question.partial.sequence)
            xcb_discard_reply(connection, question.full.sequence)
        }
        for frame in frames { xcb_discard_reply(connection, frame.sequence) }
        for question in facts {
            xcb_discard_reply(connection, question.attributes.sequence)
            xcb_discard_reply(connection, question.geometry.sequence)
            xcb_discard_reply(connection, question.position.sequence)
            xcb_discard_reply(connection, question.type.sequence)
        }
        if screenSaver != 0 { xtoast_discard(connection, screenSaver) }
        input.discard(display)
    }

    /// The struts and work area (waits for the answers the first time).
    func resolve() -> Panels {
        if let answer { return answer }
        let declared = display.struts(questions)
        var struts = declared.compactMap { $0 }
        // Every answer is read (and freed); only so many windows are kept.
        var grandchildren: [xcb_window_t] = []
        let listed = Set(clients)
        var holders: Set<xcb_window_t> = []
        for (child, frame) in zip(children, frames) {
            let found = display.windows(frame)
            if found.contains(where: listed.contains) { holders.insert(child) }
            grandchildren += found.prefix(max(XDisplay.clientListLimit - grandchildren.count, 0))
        }
        if struts.isEmpty {
            struts = display.struts(display.askStruts(of: Array(Set(grandchildren).subtracting(clients)))).compactMap { $0 }
        }
        let withStrut = Set(zip(windows, declared).compactMap { $0.1 == nil ? nil : $0.0 })
        let found = display.facts(facts, holders: holders, withStrut: withStrut)
        // The root's children in stacking order (what lies under a managed window is a
        // background), then the clients inside frames.
        let byID = Dictionary(found.map { ($0.id, $0) }) { first, _ in first }
        let rootChildren = Set(children)
        let topLevels = Coverage.stacked(children.compactMap { byID[$0] }) + found.filter { !rootChildren.contains($0.id) }
        let saverOn = screenSaver != 0 && LockWatch.screenSaverState(display, screenSaver) == 1
        let made = Panels(struts: struts, workArea: workArea, windows: topLevels, screenSaverOn: saverOn, input: input.grabs(display))
        answer = made
        return made
    }
}

/// What the docks and panels keep for themselves: their struts, and the window manager's work
/// area; and what else is on screen that no window manager describes (`Coverage`).
struct Panels {
    var struts: [Strut]
    var workArea: Rect?
    /// The clients and the root's children, as `Coverage` sees them.
    var windows: [TopLevelWindow] = []
    /// MIT-SCREEN-SAVER says the saver is on (the screen blanked, or a saver drawing).
    var screenSaverOn = false
    /// Whether another client holds the keyboard and the pointer.
    var input = InputGrabs.free

    /// `monitors`, each with the part of it that toasts may use.
    func apply(to monitors: [Monitor], screen: Size) -> [Monitor] {
        let inTheWay = Coverage.inTheWay(windows, monitors: monitors.map(\.rect))
        return monitors.map { monitor in
            var monitor = monitor
            monitor.workArea = WorkArea.usable(monitor.rect, screen: screen, struts: struts, workArea: workArea, inTheWay: inTheWay)
            return monitor
        }
    }

    /// For each of `monitors`, whether a locker, a blanker or the screen saver covers it.
    func covered(_ monitors: [Rect]) -> [Bool] {
        Coverage.covered(windows, screenSaverOn: screenSaverOn, input: input, monitors: monitors)
    }

    /// What a look at the lock finds on `monitors`.
    func lock(_ monitors: [Rect]) -> LockState {
        Coverage.lock(windows, screenSaverOn: screenSaverOn, input: input, monitors: monitors)
    }

    /// The windows that may lock one of `monitors` (`Coverage.mayLock`): asked for their shapes
    /// while another client holds the input, and watched.
    func lockCandidates(on monitors: [Rect]) -> [Int] {
        windows.indices.filter { index in monitors.contains { Coverage.mayLock(windows[index], $0) } }
    }
}

extension XDisplay {
    /// Most clients the list is read for: a desktop has dozens; a hostile list is cut here.
    static let clientListLimit = 1024
    /// Desktops whose work area is read (`_NET_WORKAREA` has four numbers each).
    static let desktopLimit = 64

    /// The screen's size in pixels, as the server said when the connection opened.
    public var screenSize: Size { Size(width: Int(XDisplayWidth(pointer, screen)), height: Int(XDisplayHeight(pointer, screen))) }

    /// Asks for the root's client list, work area, current desktop and children without
    /// waiting: the answers come back with the monitors', in the same round trip.
    func askPanels() -> PanelQuestions {
        let root = xcb_window_t(truncatingIfNeeded: self.root)
        func ask(_ property: Atom, _ type: xcb_atom_enum_t, _ longs: Int) -> xcb_get_property_cookie_t {
            xcb_get_property(
                connection, 0, root, xcb_atom_t(truncatingIfNeeded: property), xcb_atom_t(type.rawValue), 0, UInt32(longs))
        }
        return PanelQuestions(
            clientList: ask(atoms.clientList, XCB_ATOM_WINDOW, Self.clientListLimit),
            workArea: ask(atoms.workArea, XCB_ATOM_CARDINAL, 4 * Self.desktopLimit),
            currentDesktop: ask(atoms.currentDesktop, XCB_ATOM_CARDINAL, 1),
            rootChildren: xcb_query_tree(connection, root))
    }

    /// The struts `windows` declare, asked all at once; read with `struts(_:)`.
    fileprivate func askStruts(of windows: [xcb_window_t]) -> [StrutQuestion] {
        func ask(_ window: xcb_window_t, _ property: Atom, _ longs: UInt32) -> xcb_get_property_cookie_t {
            xcb_get_property(
                connection, 0, window, xcb_atom_t(truncatingIfNeeded: property), xcb_atom_t(XCB_ATOM_CARDINAL.rawValue), 0, longs)
        }
        return windows.map { StrutQuestion(partial: ask($0, atoms.strutPartial, 12), full: ask($0, atoms.strut, 4)) }
    }

    /// What `Coverage` reads of `windows`, asked all at once; read with `facts(_:holders:withStrut:)`.
    fileprivate func askFacts(of windows: [xcb_window_t]) -> [WindowQuestion] {
        let root = xcb_window_t(truncatingIfNeeded: self.root)
        return windows.map { window in
            WindowQuestion(
                window: window, attributes: xcb_get_window_attributes(connection, window), geometry: xcb_get_geometry(connection, window),
                position: xcb_translate_coordinates(connection, window, root, 0, 0),
                type: xcb_get_property(
                    connection, 0, window, xcb_atom_t(truncatingIfNeeded: atoms.windowType), xcb_atom_t(XCB_ATOM_ATOM.rawValue), 0,
                    UInt32(FullscreenWatch.stateLimit)))
        }
    }

    /// The answers to `askFacts`, every one read (and freed); a window gone meanwhile is left out.
    fileprivate func facts(_ questions: [WindowQuestion], holders: Set<xcb_window_t>, withStrut: Set<xcb_window_t>) -> [TopLevelWindow] {
        let dock = UInt32(truncatingIfNeeded: atoms.windowTypeDock)
        return questions.compactMap { question -> TopLevelWindow? in
            let attributes = xcb_get_window_attributes_reply(connection, question.attributes, nil)
            let geometry = xcb_get_geometry_reply(connection, question.geometry, nil)
            let position = xcb_translate_coordinates_reply(connection, question.position, nil)
            let types = cardinals(question.type, type: XCB_ATOM_ATOM, cut: true) ?? []
            defer {
                free(attributes)
                free(geometry)
                free(position)
            }
            guard let attributes, let geometry, let position, position.pointee.same_screen != 0 else { return nil }
            return TopLevelWindow(
                id: question.window,
                frame: Rect(
                    x: Int(position.pointee.dst_x), y: Int(position.pointee.dst_y), width: Int(geometry.pointee.width),
                    height: Int(geometry.pointee.height)),
                isOverrideRedirect: attributes.pointee.override_redirect != 0,
                isInputOnly: attributes.pointee._class == UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue),
                isViewable: attributes.pointee.map_state == UInt8(XCB_MAP_STATE_VIEWABLE.rawValue),
                holdsClient: holders.contains(question.window), isDock: dock != 0 && types.contains(dock),
                hasStrut: withStrut.contains(question.window))
        }
    }

    /// The answers to `askStruts`, one per question (nil: none declared): both are read (and
    /// freed) for every window; the partial strut wins, as EWMH says.
    fileprivate func struts(_ questions: [StrutQuestion]) -> [Strut?] {
        let screen = screenSize
        return questions.map { question -> Strut? in
            let partial = cardinals(question.partial, type: XCB_ATOM_CARDINAL).flatMap { Strut(partial: $0, screen: screen) }
            let full = cardinals(question.full, type: XCB_ATOM_CARDINAL).flatMap { Strut(full: $0, screen: screen) }
            return partial ?? full
        }
    }

    /// The children from a QueryTree answer; none when the window is gone.
    fileprivate func windows(_ question: xcb_query_tree_cookie_t) -> [xcb_window_t] {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_query_tree_reply(connection, question, &error)
        defer {
            free(reply)
            free(error)
        }
        guard let reply, let children = xcb_query_tree_children(reply) else { return [] }
        return Array(UnsafeBufferPointer(start: children, count: Int(xcb_query_tree_children_length(reply))))
    }

    /// A format-32 property's values from its answer, nil when absent or of another type or
    /// format, or (unless `cut`) longer than was asked for: any client can write anything there.
    func cardinals(_ question: xcb_get_property_cookie_t, type: xcb_atom_enum_t, cut: Bool = false) -> [UInt32]? {
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_get_property_reply(connection, question, &error)
        defer {
            free(reply)
            free(error)
        }
        guard let reply, reply.pointee.type == type.rawValue, reply.pointee.format == 32, cut || reply.pointee.bytes_after == 0,
            let value = xcb_get_property_value(reply)
        else { return nil }
        let count = Int(xcb_get_property_value_length(reply)) / 4
        return Array(UnsafeBufferPointer(start: value.assumingMemoryBound(to: UInt32.self), count: count))
    }
}
