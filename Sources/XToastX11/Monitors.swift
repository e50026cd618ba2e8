import CX11
import Glibc
import XToastCore

extension XDisplay {
    /// The monitors as the server sees them: RandR 1.5 monitors, else Xinerama screens, else
    /// the whole screen. Names cost a round trip, so they are fetched only when `named`. Each
    /// comes with its work area: the questions about docks and panels travel with the
    /// monitors' (their struts cost one more round trip when a window manager lists clients).
    public func monitors(named: Bool) -> [Monitor] {
        let (found, panels) = monitorsAndPanels(named: named)
        return panels.resolve().apply(to: found, screen: screenSize)
    }

    /// The monitors, and their docks' struts still on their way (see `PendingPanels`).
    func monitorsAndPanels(named: Bool) -> ([Monitor], PendingPanels) {
        let panelQuestions = askPanels()
        let found = randrMonitors(named: named) ?? xineramaMonitors() ?? [wholeScreen]
        return (found, PendingPanels(display: self, panelQuestions))
    }

    private var wholeScreen: Monitor {
        Monitor(
            name: "screen",
            rect: Rect(x: 0, y: 0, width: Int(XDisplayWidth(pointer, screen)), height: Int(XDisplayHeight(pointer, screen))),
            isPrimary: true)
    }

    /// RandR 1.5 monitors, asked through XCB: the version and the monitors go out together and
    /// cost one round trip (the extension's opcode came with the atoms).
    private func randrMonitors(named: Bool) -> [Monitor]? {
        guard xtoast_randr_opcode(connection) != 0 else { return nil }
        let versionQuestion = xcb_randr_query_version(connection, 1, 5)
        let monitorsQuestion = xcb_randr_get_monitors(connection, xcb_window_t(truncatingIfNeeded: root), 1)
        // Their answers come back with RENDER's formats.
        finishRenderSetUp()
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let version = xcb_randr_query_version_reply(connection, versionQuestion, &error)
        free(error)
        error = nil
        // Before 1.5 the server answers GetMonitors with an error, which comes back here.
        let reply = xcb_randr_get_monitors_reply(connection, monitorsQuestion, &error)
        defer {
            free(version)
            free(reply)
            free(error)
        }
        guard let version, (version.pointee.major_version, version.pointee.minor_version) >= (1, 5), let reply else { return nil }
        var infos: [xcb_randr_monitor_info_t] = []
        var iterator = xcb_randr_get_monitors_monitors_iterator(reply)
        while iterator.rem > 0, let info = iterator.data {
            infos.append(info.pointee)
            xcb_randr_monitor_info_next(&iterator)
        }
        guard !infos.isEmpty else { return nil }
        var names = infos.indices.map { String($0) }
        if named {
            var atoms = infos.map { Atom($0.name) }
            var cNames = [UnsafeMutablePointer<CChar>?](repeating: nil, count: atoms.count)
            if XGetAtomNames(pointer, &atoms, Int32(atoms.count), &cNames) != 0 {
                names = cNames.enumerated().map { i, name in name.map { String(cString: $0) } ?? String(i) }
            }
            cNames.forEach { if let name = $0 { XFree(name) } }
        }
        return infos.enumerated().map { i, info in
            Monitor(
                name: names[i],
                rect: Rect(x: Int(info.x), y: Int(info.y), width: Int(info.width), height: Int(info.height)),
                isPrimary: info.primary != 0)
        }
    }

    private func xineramaMonitors() -> [Monitor]? {
        guard XineramaIsActive(pointer) != 0 else { return nil }
        var count: Int32 = 0
        guard let list = XineramaQueryScreens(pointer, &count), count > 0 else { return nil }
        defer { XFree(list) }
        return UnsafeBufferPointer(start: list, count: Int(count)).enumerated().map { i, screen in
            Monitor(
                name: String(i),
                rect: Rect(x: Int(screen.x_org), y: Int(screen.y_org), width: Int(screen.width), height: Int(screen.height)),
                isPrimary: i == 0)
        }
    }

    /// From the answer that came with the atoms.
    private var hasRandR: Bool { xtoast_randr_opcode(connection) != 0 }

    /// Where the pointer is on this screen, nil when it is on another screen.
    public func pointerPosition() -> Point? {
        var rootReturn: Window = 0
        var child: Window = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var winX: Int32 = 0
        var winY: Int32 = 0
        var mask: UInt32 = 0
        guard XQueryPointer(pointer, root, &rootReturn, &child, &x, &y, &winX, &winY, &mask) != 0 else { return nil }
        return Point(x: Int(x), y: Int(y))
    }

    /// The rectangle of the window the window manager says is active (`_NET_ACTIVE_WINDOW`).
    public func focusedWindowRect() -> Rect? {
        guard let window = listProperty(root, atoms.activeWindow, type: Atom(XA_WINDOW), limit: 1)?.first, window != 0 else {
            return nil
        }
        var rect: Rect?
        // The window may vanish between the two requests: that is an error to trap, not a crash.
        _ = trapErrors {
            var rootReturn: Window = 0
            var x: Int32 = 0
            var y: Int32 = 0
            var width: UInt32 = 0
            var height: UInt32 = 0
            var border: UInt32 = 0
            var depth: UInt32 = 0
            var child: Window = 0
            guard XGetGeometry(pointer, window, &rootReturn, &x, &y, &width, &height, &border, &depth) != 0,
                XTranslateCoordinates(pointer, window, root, 0, 0, &x, &y, &child) != 0
            else { return }
            rect = Rect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
        }
        return rect
    }

    /// The refresh rate of the CRTC that shows most of `monitor`, from its RandR mode; nil
    /// when unknown (Xvfb's modes have no dot clock). Two round trips: the screen's resources,
    /// then every CRTC at once.
    public func refreshRate(of monitor: Rect) -> Double? {
        guard hasRandR else { return nil }
        let question = xcb_randr_get_screen_resources_current(connection, xcb_window_t(truncatingIfNeeded: root))
        guard let resources = xcb_randr_get_screen_resources_current_reply(connection, question, nil) else { return nil }
        defer { free(resources) }
        let modes = UnsafeBufferPointer(
            start: xcb_randr_get_screen_resources_current_modes(resources),
            count: Int(xcb_randr_get_screen_resources_current_modes_length(resources)))
        let crtcs = UnsafeBufferPointer(
            start: xcb_randr_get_screen_resources_current_crtcs(resources),
            count: Int(xcb_randr_get_screen_resources_current_crtcs_length(resources)))
        let questions = crtcs.map { xcb_randr_get_crtc_info(connection, $0, resources.pointee.config_timestamp) }
        var best: (overlap: Int, rate: Double)?
        for question in questions {
            guard let info = xcb_randr_get_crtc_info_reply(connection, question, nil) else { continue }
            defer { free(info) }
            let rect = Rect(
                x: Int(info.pointee.x), y: Int(info.pointee.y), width: Int(info.pointee.width), height: Int(info.pointee.height))
            let overlap = rect.overlapArea(with: monitor)
            guard overlap > 0, let mode = modes.first(where: { $0.id == info.pointee.mode }),
                mode.dot_clock > 0, mode.htotal > 0, mode.vtotal > 0
            else { continue }
            var lines = Double(mode.vtotal)
            if mode.mode_flags & UInt32(XCB_RANDR_MODE_FLAG_DOUBLE_SCAN.rawValue) != 0 { lines *= 2 }
            if mode.mode_flags & UInt32(XCB_RANDR_MODE_FLAG_INTERLACE.rawValue) != 0 { lines /= 2 }
            let rate = Double(mode.dot_clock) / (Double(mode.htotal) * lines)
            if best == nil || overlap > best!.overlap { best = (overlap, rate) }
        }
        return best.map(\.rate)
    }
}
