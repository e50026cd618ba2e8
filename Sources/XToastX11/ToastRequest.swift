import XToastCore

/// Everything needed to show one toast.
public struct ToastRequest: Sendable {
    public var content: ToastContent
    public var style: Style
    public var duration: DisplayDuration
    public var monitor: MonitorChoice
    /// Where `monitor` was set when it came from a config file or X resources (for a warning),
    /// nil when it came from the command line or the defaults.
    public var monitorOrigin: String?
    /// Logical-to-device pixel factor; nil reads `Xft.dpi` from the server's resources.
    public var scale: Double?
    /// nil uses `$DISPLAY`.
    public var displayName: String?
    /// A toast with the same tag replaces this one in place instead of queueing (`--tag`).
    public var tag: String?
    /// Now, or later (`--in`, `--at`).
    public var delivery: Delivery
    /// Show alongside the toasts on screen, stacked from the edge, instead of waiting (`--stack`).
    public var stack: Bool
    /// For `--at` in the local zone: the instant worked out again after the zone changed.
    public var rescheduleAfterZoneChange: (@Sendable () -> Double?)?
    /// Lines from standard input update the toast (`--stdin`).
    public var followStandardInput = false
    /// The command `--run` started: the toast follows it.
    public var command: RunningCommand?
    /// Follow the desktop's "reduce motion" (XSETTINGS `Net/EnableAnimations`); false when
    /// `--animation` was given on the command line.
    public var followsReducedMotion = true
    /// Clicks go to the window below (`--click-through`).
    public var clickThrough = false
    /// What it does while its monitor shows a fullscreen window (`--fullscreen`, resolved).
    public var fullscreen = FullscreenPolicy.show
    /// Seconds without input after which the user counts as away (`--idle`); 0: off.
    public var idleThreshold = 0.0
    /// Tell a running screen reader what the toast says as it appears (`announce`).
    public var announce = true
    /// Show even while toasts are paused (`--urgent`; see `Configuration.goesThroughPause`).
    public var urgent = false
    /// Played as it first shows (`--sound`).
    public var sound: Sound?
    /// Its part of a summary after quiet (`Configuration.awayName`, `--burst`); nil: it shows
    /// as itself.
    public var away: Ticket.Away?

    public init(
        content: ToastContent, style: Style, duration: DisplayDuration, monitor: MonitorChoice, scale: Double?,
        displayName: String?, tag: String?, delivery: Delivery = .now, stack: Bool = false
    ) {
        self.delivery = delivery
        self.stack = stack
        self.content = content
        self.style = style
        self.duration = duration
        self.monitor = monitor
        self.scale = scale
        self.displayName = displayName
        self.tag = tag
    }
}
