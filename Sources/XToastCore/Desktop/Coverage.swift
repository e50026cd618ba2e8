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
    /// Its bounding shape (SHAPE), as rectangles in its own coordinates; nil when it has none or
    /// it was not asked (only a window that may lock a monitor is asked).
    public var shape: [Rect]?

    public init(
        id: UInt32, frame: Rect, isOverrideRedirect: Bool = false, isInputOnly: Bool = false, isViewable: Bool = true,
        holdsClient: Bool = false, isDock: Bool = false, hasStrut: Bool = false, isUnderManagedWindow: Bool = false,
        shape: [Rect]? = nil
    ) {
        self.shape = shape
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

/// Whether another client holds the keyboard and the pointer (active grabs), as a probe that
/// grabs nothing finds out (a grab asked for on a window that is never mapped is refused as
/// `AlreadyGrabbed` when another client holds it, as `NotViewable` when nobody does). Every
/// screen locker holds both; an overlay (a key-cast or annotation tool) holds neither; a key
/// held down (a window manager's key binding that started the toast) holds only the keyboard.
public struct InputGrabs: Equatable, Sendable {
    public var keyboard: Bool
    public var pointer: Bool

    public init(keyboard: Bool, pointer: Bool) {
        (self.keyboard, self.pointer) = (keyboard, pointer)
    }

    /// Nobody holds either.
    public static let free = InputGrabs(keyboard: false, pointer: false)
    /// Both held (also what an answer that cannot be read counts as: a screen that may be
    /// locked is treated as locked).
    public static let held = InputGrabs(keyboard: true, pointer: true)

    /// Both are held by another client: the screen's owner has all input.
    public var bothHeld: Bool { keyboard && pointer }
}

/// What a look at the lock finds (issues #22, #28).
public enum LockState: Equatable, Sendable {
    /// Nothing locks the toast's monitors.
    case clear
    /// A locker or the screen saver covers one of them.
    case locked
    /// A window that may be a locker's draws over one of them, but nobody holds the input: a
    /// locker between mapping its window and taking the keyboard and pointer (on a loaded
    /// machine that is milliseconds or more), or an overlay that never will. Looked at again a
    /// few times (`Session.lockRechecks`) before it counts as clear.
    case undecided
}

/// What covers a monitor and what stands in a toast's way, beyond what the window manager
/// publishes (issues #22, #28): the one home of both rules. The fullscreen rule for the windows
/// the window manager lists is `Fullscreen`.
///
/// - A monitor is *locked* when a locker holds it: what a screen locker is, not one locker's
///   shape. Another client holds both the keyboard and the pointer (`InputGrabs`), and a
///   viewable, override-redirect, InputOutput window that is no window manager's frame draws
///   over all of the monitor, give or take `lockerInset` pixels at its edges (xsecurelock's
///   "obscurer" stops one pixel short; its lock itself is in the Composite overlay window,
///   which the root's children do not list): i3lock, xsecurelock, slock, xscreensaver,
///   `xtrlock -b`. Without the grabs such a window is an overlay (a key-cast or annotation
///   tool, often transparent) or a game that does not hold the input, and nothing is locked.
///   An InputOnly window draws nothing; an unmapped one is not there; one with a managed
///   window stacked over it is a background (an animated wallpaper); a shaped one draws only
///   its shape (a region picker's outline), which must cover the monitor too.
/// - The server's own screen saver being on (MIT-SCREEN-SAVER) covers every monitor: the
///   screen is blank or an external saver draws on it.
/// - A window is *in the way* along a monitor's edge when nothing reserves its place: a visible
///   dock with no strut (a launcher that hides when windows cover it, so reserves nothing) at an
///   edge of the monitor, or an unmanaged strip (dwm's bar) spanning a whole edge of it.
public enum Coverage {
    /// Pixels a locker's window may stop short of each edge of a monitor and still lock it.
    public static let lockerInset = 4

    /// Whether `window` draws over all of `monitor` as a locker's window does (the grabs decide
    /// whether it is one): the windows to ask the shape of, and to watch while locked.
    public static func mayLock(_ window: TopLevelWindow, _ monitor: Rect) -> Bool {
        guard window.isViewable, window.isOverrideRedirect, !window.isInputOnly, !window.holdsClient, !window.isUnderManagedWindow,
            monitor.width > 2 * lockerInset, monitor.height > 2 * lockerInset
        else { return false }
        let inner = Rect(
            x: monitor.x + lockerInset, y: monitor.y + lockerInset, width: monitor.width - 2 * lockerInset,
            height: monitor.height - 2 * lockerInset)
        guard window.frame.contains(inner) else { return false }
        guard let shape = window.shape else { return true }
        // Shaped: one of its rectangles, clipped to the window, draws over the monitor.
        return shape.contains { rect in
            let placed = Rect(x: window.frame.x + rect.x, y: window.frame.y + rect.y, width: rect.width, height: rect.height)
            return placed.contains(inner)
        }
    }

    /// For each monitor in `monitors`, whether it is locked: by the screen saver, or by a window
    /// of a client that holds the input.
    public static func covered(_ windows: [TopLevelWindow], screenSaverOn: Bool, input: InputGrabs, monitors: [Rect]) -> [Bool] {
        monitors.map { monitor in screenSaverOn || (input.bothHeld && windows.contains { mayLock($0, monitor) }) }
    }

    /// What a look at the lock finds for a toast on `monitors`.
    public static func lock(_ windows: [TopLevelWindow], screenSaverOn: Bool, input: InputGrabs, monitors: [Rect]) -> LockState {
        if covered(windows, screenSaverOn: screenSaverOn, input: input, monitors: monitors).contains(true) { return .locked }
        return windows.contains { window in monitors.contains { mayLock(window, $0) } } ? .undecided : .clear
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
