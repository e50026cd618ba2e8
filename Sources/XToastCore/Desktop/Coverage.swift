/// A window at the top of the window tree (a child of the root), as the rules for what covers a
/// monitor and what stands in a toast's way see it: the facts the server gives about any window,
/// whether or not a window manager knows it.
public struct TopLevelWindow: Equatable, Sendable {
    public var id: UInt32
    /// Its rectangle in root coordinates.
    public var frame: Rect
    /// It bypasses the window manager (a locker, a menu, dwm's bar, i3's frames, a toast).
    public var isOverrideRedirect: Bool
    /// An InputOnly window: it catches input and draws nothing.
    public var isInputOnly: Bool
    /// Mapped, with every ancestor mapped.
    public var isViewable: Bool
    /// It holds a client the window manager lists: a frame (i3's frames are override-redirect),
    /// judged by the fullscreen rule through its client, not here.
    public var holdsClient: Bool
    /// `_NET_WM_WINDOW_TYPE_DOCK`, on the window itself or on the client it holds.
    public var isDock: Bool
    /// It declares a strut (`_NET_WM_STRUT_PARTIAL` or `_NET_WM_STRUT`), which `WorkArea` reads.
    public var hasStrut: Bool
    /// A window the window manager manages (or its frame) is stacked over it: a background
    /// (an animated wallpaper), not a locker, which keeps itself on top.
    public var isUnderManagedWindow: Bool

    public init(
        id: UInt32, frame: Rect, isOverrideRedirect: Bool = false, isInputOnly: Bool = false, isViewable: Bool = true,
        holdsClient: Bool = false, isDock: Bool = false, hasStrut: Bool = false, isUnderManagedWindow: Bool = false
    ) {
        self.id = id
        self.frame = frame
        self.isOverrideRedirect = isOverrideRedirect
        self.isInputOnly = isInputOnly
        self.isViewable = isViewable
        self.holdsClient = holdsClient
        self.isDock = isDock
        self.hasStrut = hasStrut
        self.isUnderManagedWindow = isUnderManagedWindow
    }

    /// Whether it is a managed window or a window manager's frame, drawn where it stands.
    public var isManaged: Bool { isViewable && !isInputOnly && (!isOverrideRedirect || holdsClient) }
}

/// What covers a monitor and what stands in a toast's way, beyond what the window manager
/// publishes (issue #22): the one home of both rules. The fullscreen rule for the windows the
/// window manager lists is `Fullscreen`.
///
/// - A monitor is *covered* when a viewable, override-redirect, InputOutput window that is no
///   window manager's frame spans all of it: that is what a screen locker (i3lock, xsecurelock,
///   xscreensaver) and a blanker look like, and a game that bypasses the window manager too;
///   nothing tells them apart, so a toast treats them all as a locked screen. An InputOnly
///   window draws nothing and never covers; an unmapped one is not there; one with a managed
///   window stacked over it is a background (an animated wallpaper), not a locker.
/// - The server's own screen saver being on (MIT-SCREEN-SAVER) covers every monitor: the
///   screen is blank or an external saver draws on it.
/// - A window is *in the way* along a monitor's edge when nothing reserves its place: a visible
///   dock with no strut (a launcher that hides when windows cover it, so reserves nothing) at an
///   edge of the monitor, or an unmanaged strip (dwm's bar) spanning a whole edge of it.
public enum Coverage {
    /// Whether `window` alone covers `monitor`.
    public static func covers(_ window: TopLevelWindow, _ monitor: Rect) -> Bool {
        window.isViewable && window.isOverrideRedirect && !window.isInputOnly && !window.holdsClient && !window.isUnderManagedWindow
            && monitor.width > 0 && monitor.height > 0 && window.frame.contains(monitor)
    }

    /// For each monitor in `monitors`, whether it is covered: by the screen saver, or by a window.
    public static func covered(_ windows: [TopLevelWindow], screenSaverOn: Bool, monitors: [Rect]) -> [Bool] {
        monitors.map { monitor in screenSaverOn || windows.contains { covers($0, monitor) } }
    }

    /// Most of a monitor's height (or width) a window along its edge may take and still be a bar
    /// or a dock: past it, it is a window, not something to stay clear of.
    static let bandLimit = 4

    /// The place along an edge of `monitor` that `window` takes and no strut reserves, as a
    /// reservation (the rectangle from the monitor's edge to the window's far side); nil when it
    /// is not in the way there.
    public static func band(of window: TopLevelWindow, on monitor: Rect) -> (edge: Strut.Edge, rect: Rect)? {
        guard window.isViewable, !window.isInputOnly, !window.hasStrut, !window.holdsClient || window.isDock else { return nil }
        let frame = window.frame
        guard frame.overlapArea(with: monitor) > 0 else { return nil }
        // A dock touching an edge (give or take a border); an unmanaged strip spanning one.
        let slack = 2
        let spansWidth = frame.x <= monitor.x && frame.maxX >= monitor.maxX
        let spansHeight = frame.y <= monitor.y && frame.maxY >= monitor.maxY
        let thinVertically = frame.height * bandLimit <= monitor.height
        let thinHorizontally = frame.width * bandLimit <= monitor.width
        let touches: [(Strut.Edge, Bool, Bool)] = [
            (.top, abs(frame.y - monitor.y) <= slack, thinVertically && (window.isDock || spansWidth)),
            (.bottom, abs(frame.maxY - monitor.maxY) <= slack, thinVertically && (window.isDock || spansWidth)),
            (.left, abs(frame.x - monitor.x) <= slack, thinHorizontally && (window.isDock || spansHeight)),
            (.right, abs(frame.maxX - monitor.maxX) <= slack, thinHorizontally && (window.isDock || spansHeight)),
        ]
        guard window.isDock || window.isOverrideRedirect,
            let edge = touches.first(where: { $0.1 && $0.2 })?.0
        else { return nil }
        let left = max(frame.x, monitor.x)
        let right = min(frame.maxX, monitor.maxX)
        let top = max(frame.y, monitor.y)
        let bottom = min(frame.maxY, monitor.maxY)
        switch edge {
        case .top: return (edge, Rect(x: left, y: monitor.y, width: right - left, height: bottom - monitor.y))
        case .bottom: return (edge, Rect(x: left, y: top, width: right - left, height: monitor.maxY - top))
        case .left: return (edge, Rect(x: monitor.x, y: top, width: right - monitor.x, height: bottom - top))
        case .right: return (edge, Rect(x: left, y: top, width: monitor.maxX - left, height: bottom - top))
        }
    }

    /// Every band `windows` take on `monitors`, as struts `WorkArea` keeps toasts clear of.
    public static func inTheWay(_ windows: [TopLevelWindow], monitors: [Rect]) -> [Strut] {
        monitors.flatMap { monitor in
            windows.compactMap { window in band(of: window, on: monitor).map { Strut(reserving: $0.rect, from: $0.edge) } }
        }
    }

    /// `windows` (the root's children, bottom to top) with `isUnderManagedWindow` worked out
    /// from their order.
    public static func stacked(_ windows: [TopLevelWindow]) -> [TopLevelWindow] {
        var managedAbove = false
        let topDown = windows.reversed().map { window in
            var window = window
            window.isUnderManagedWindow = managedAbove
            managedAbove = managedAbove || window.isManaged
            return window
        }
        return topDown.reversed()
    }
}
