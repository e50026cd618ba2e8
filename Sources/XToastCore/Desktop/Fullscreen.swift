/// A window the window manager manages, as the fullscreen rule sees it: its client window's
/// rectangle in root coordinates and what its `_NET_WM_STATE` says.
public struct ClientWindow: Equatable, Sendable {
    public var id: UInt32
    public var frame: Rect
    /// `_NET_WM_STATE_FULLSCREEN`.
    public var isFullscreen: Bool
    /// `_NET_WM_STATE_HIDDEN` (minimised), or not viewable (on another desktop, unmapped).
    public var isHidden: Bool
    /// Both `_NET_WM_STATE_MAXIMIZED_VERT` and `_HORZ`.
    public var isMaximized: Bool
    /// A desktop window (`_NET_WM_WINDOW_TYPE_DESKTOP`: the icons under everything), as big as
    /// the screen and never fullscreen.
    public var isDesktop: Bool

    public init(
        id: UInt32, frame: Rect, isFullscreen: Bool = false, isHidden: Bool = false, isMaximized: Bool = false, isDesktop: Bool = false
    ) {
        self.id = id
        self.frame = frame
        self.isFullscreen = isFullscreen
        self.isHidden = isHidden
        self.isMaximized = isMaximized
        self.isDesktop = isDesktop
    }
}

/// What the window manager says about its windows at one moment: the stacking order
/// (`_NET_CLIENT_LIST_STACKING`) and the active window (`_NET_ACTIVE_WINDOW`).
public struct DesktopSnapshot: Equatable, Sendable {
    /// Bottom to top; empty when the window manager publishes no stacking list (or none runs).
    public var stacking: [ClientWindow]
    /// The active window, when there is one and it could be read.
    public var active: ClientWindow?
    /// Without a stacking list: the clients the window manager lists (`_NET_CLIENT_LIST`), in no
    /// known order (dwm publishes no stacking list).
    public var unordered: [ClientWindow]

    public init(stacking: [ClientWindow] = [], active: ClientWindow? = nil, unordered: [ClientWindow] = []) {
        self.stacking = stacking
        self.active = active
        self.unordered = unordered
    }
}

/// Whether the window on top of a monitor is fullscreen (issue #14), judged from the stacking
/// order and the active window, never from the input focus: dunst asks who has the focus and
/// gets it wrong where the window manager keeps it elsewhere (dunst #637, #801, #1525).
///
/// The rule, for each monitor, walking the visible windows that overlap it from the top down
/// (mutter's `check_fullscreen_func` decides the same way):
/// - a window that *fills* the monitor covers it: marked fullscreen and over at least half of
///   it, or (games that never say so) neither maximised nor a desktop window yet spanning the
///   whole monitor;
/// - a window that *obscures* it ends the walk uncovered: maximised, or over at least half of
///   the monitor (the user is working in front of the film);
/// - a smaller window (a dialog, a picture-in-picture player) is passed over: the fullscreen
///   window under it is still what the monitor shows.
/// Hidden (minimised) and unviewable windows count for nothing. When the active window is not in
/// the stacking list (no list at all: the window manager does not publish one) it is taken as
/// the top window, so the active window being fullscreen there is decisive; without a list, a
/// listed client that says it is fullscreen and fills a monitor covers it too.
public enum Fullscreen {
    /// For each monitor in `monitors`, whether the window on top of it is fullscreen.
    public static func covered(_ snapshot: DesktopSnapshot, monitors: [Rect]) -> [Bool] {
        let stack = effectiveStack(snapshot)
        return monitors.map { monitor in
            deciding(stack, on: monitor).map { fills($0, monitor) } ?? false
                || snapshot.stacking.isEmpty && snapshot.unordered.contains { saysFullscreen($0, on: monitor) }
        }
    }

    /// Without a stacking list (dwm), the active window decides only its own monitor: on
    /// another, a visible client that says it is fullscreen and fills it covers it (a film on
    /// one monitor, the focus on the other; issue #22). Nothing tells what is above it there;
    /// a window manager that keeps a fullscreen window on top is the common case.
    static func saysFullscreen(_ window: ClientWindow, on monitor: Rect) -> Bool {
        !window.isHidden && window.isFullscreen && fills(window, monitor)
    }

    /// The window that decides `monitor`: the topmost visible one that fills or obscures it; nil
    /// when none does (the monitor is not covered).
    public static func deciding(_ snapshot: DesktopSnapshot, on monitor: Rect) -> ClientWindow? {
        deciding(effectiveStack(snapshot), on: monitor)
    }

    /// Whether `window` fills `monitor` (see the rule above).
    public static func fills(_ window: ClientWindow, _ monitor: Rect) -> Bool {
        let overlap = window.frame.overlapArea(with: monitor)
        guard overlap > 0 else { return false }
        if window.isFullscreen { return 2 * overlap >= area(monitor) }
        return !window.isMaximized && !window.isDesktop && window.frame.contains(monitor)
    }

    /// Whether `window` hides most of `monitor` without filling it.
    public static func obscures(_ window: ClientWindow, _ monitor: Rect) -> Bool {
        let overlap = window.frame.overlapArea(with: monitor)
        return overlap > 0 && (window.isMaximized || window.isDesktop || 2 * overlap >= area(monitor))
    }

    private static func deciding(_ stack: [ClientWindow], on monitor: Rect) -> ClientWindow? {
        stack.reversed().first { window in
            !window.isHidden && (fills(window, monitor) || obscures(window, monitor))
        }
    }

    /// The stacking list, with the active window on top when the list does not hold it.
    private static func effectiveStack(_ snapshot: DesktopSnapshot) -> [ClientWindow] {
        guard let active = snapshot.active, !snapshot.stacking.contains(where: { $0.id == active.id }) else {
            return snapshot.stacking
        }
        return snapshot.stacking + [active]
    }

    private static func area(_ rect: Rect) -> Int { max(rect.width, 0) * max(rect.height, 0) }
}

/// What a toast does while the window on top of its monitor is fullscreen (`--fullscreen`).
public enum FullscreenPolicy: String, CaseIterable, Sendable {
    /// Show it as usual, over the fullscreen window.
    case show
    /// Wait until that monitor is no longer covered, aside in its place (the toasts behind pass
    /// it), then show it in the order it started.
    case delay
    /// Do not show it at all: it ends at once.
    case drop
}

/// `--fullscreen`'s value: a policy, or `auto`, which depends on what the toast is.
public enum FullscreenChoice: Equatable, Sendable, CustomStringConvertible, CaseIterable {
    case automatic
    case policy(FullscreenPolicy)

    /// Every value, in the order `--help` names them: the policies, then `auto`.
    public static var allCases: [FullscreenChoice] { FullscreenPolicy.allCases.map(Self.policy) + [.automatic] }

    public init?(parsing text: String) {
        if text == "auto" {
            self = .automatic
        } else if let policy = FullscreenPolicy(rawValue: text) {
            self = .policy(policy)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .automatic: "auto"
        case .policy(let policy): policy.rawValue
        }
    }
}

extension Configuration {
    /// The policy for this toast: as set, or for `auto`, `show` for an on-screen display (a
    /// `--progress` bar, a `--tag` that updates in place, `--stdin` values: the answer to a key
    /// the user just pressed, even over a film) and `delay` for everything else (a script's
    /// message can wait for the film to end).
    public var fullscreenPolicy: FullscreenPolicy {
        switch style.fullscreen {
        case .policy(let policy): policy
        case .automatic: progress != nil || tag != nil || followStandardInput ? .show : .delay
        }
    }
}
