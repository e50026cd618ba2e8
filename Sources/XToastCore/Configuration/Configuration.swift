/// Everything one call of xtoast was asked to do, from all sources together: the compiled
/// defaults, X resources, the config file and the command line.
public struct Configuration: Sendable {
    public var style = Style.toast
    public var duration = DisplayDuration.automatic
    public var monitor = MonitorChoice.pointer
    /// Logical-to-device pixel factor; nil: `Xft.dpi` / 96.
    public var scale: Double?
    public var tag: String?
    public var title: String?
    public var icon: Icon?
    /// `--sound`: played as the toast shows.
    public var sound: Sound?
    public var progress: Progress?
    public var markup = false
    /// Tell a running screen reader what the toast says (`--no-announce`, `announce = false`).
    public var announce = true
    public var spinner = false
    public var followStandardInput = false
    public var run = false
    public var stack = false
    /// Clicks pass through the toast to the window below (`--click-through`).
    public var clickThrough = false
    public var action = false
    /// `--button`, in the order given.
    public var buttons: [String] = []
    /// `--reply`: the label of the button that opens the reply entry (after the others).
    public var reply: String?
    /// `--reply-placeholder`: what the empty entry shows.
    public var replyPlaceholder: String?
    public var detach = false
    public var printOutcome = false
    /// Kept in the history (`in-history = false`, `--no-history`; notify-send's `-e`).
    public var inHistory = true
    /// `--json`: `--history` and `--list` print JSON Lines.
    public var json = false
    /// `--notification`: the application's notification that `--press`, `--dismiss` or
    /// `--reshow` is for.
    public var notification: UInt32?
    /// The notification service's bounds on what it keeps after the toasts: how many, how long
    /// (seconds).
    public var keptNotifications = 100
    public var keptNotificationAge = 86_400.0
    /// Seconds the notification service stays on the bus with nothing to show (GNOME's and MATE's
    /// daemons wait as long); infinity: for the X session (`service-idle = never`).
    /// `XTOAST_NOTIFICATION_IDLE` changes it when no setting does (tests use a short one).
    public var serviceIdle = 30.0
    /// What a burst of one application's notifications makes.
    public var bursts = Dispatcher.Bursts.joined
    /// `after-quiet`: a summary, or each in turn.
    public var afterQuiet = Dispatcher.AfterQuiet.summary
    /// `--in`: seconds.
    public var delay: Double?
    /// `--at` as written; made an instant with the time zone rules by the command.
    public var at: Schedule.WallTime?
    public var timeZone: String?
    public var display: String?
    public var renderPNG: String?
    public var preset: String?
    /// `--app`: the application a notification is from, for `--print-config`'s rules.
    public var app: String?
    /// `--category`: the notification's category, for the rules' `category`.
    public var category: String?
    /// `--burst`: how many notifications the toast stands for (a burst's, "Signal · 3 new"), as
    /// a summary after quiet counts it.
    public var burst = 1
    public var configFile: String?
    public var noConfig = false
    public var mode = Mode.show

    public init() {}

    /// Whether this toast goes through a pause (`xtoast --pause`): as `urgent` says, else when
    /// it has a progress bar or a tag (an OSD such as a volume key's, as GNOME and
    /// xfce4-notifyd let through).
    public var goesThroughPause: Bool { style.urgent ?? (progress != nil || tag != nil) }

    /// The name this toast goes under in a summary after quiet (`Ticket.away`, `AwaySummary`):
    /// its application's. Nil, and it shows as itself after quiet, with `after-quiet = replay`,
    /// without a history to keep it unseen in, when it is urgent, and for a script's
    /// toast that is more than a message: one the script waits on for an answer (buttons, a
    /// reply, `--action`), a tagged, stacked, scheduled or progress toast, a spinner, `--run`,
    /// `--stdin`. An application's notification (`keptByService`) may be summarised with its
    /// buttons and tag: the centre keeps its actions, and the service its replacements.
    public func awayName(keptByService: Bool) -> String? {
        guard afterQuiet == .summary, inHistory, !stack, delay == nil, at == nil else { return nil }
        // Its tag is its id's: urgent only when critical.
        if keptByService { return style.urgent == true ? nil : app.flatMap { Ticket.isValidTag($0) ? $0 : nil } }
        guard !goesThroughPause, tag == nil, buttons.isEmpty, reply == nil, !action, progress == nil, !spinner, !run, !followStandardInput
        else {
            return nil
        }
        return app.flatMap { Ticket.isValidTag($0) ? $0 : nil } ?? ScriptToastRules.defaultApp
    }

    /// What the call does besides (or instead of) showing a toast.
    public enum Mode: Equatable, Sendable {
        case show, dismiss, dismissAll, cancelScheduled, help, version, printConfig
        /// `--pause`, `--resume`: do not disturb, and end it.
        case pause, resume
        case generateManual
        /// `--generate-markdown`: the option reference, docs/options.md.
        case generateMarkdown
        case generateCompletion(Shell)
        /// `--notification-service`: serve applications' notifications on the session bus.
        case notificationService
        /// `--press [LABEL]`: click the toast on screen, or its button LABEL.
        case press
        /// `--history`: the toasts shown, newest first; `--reshow [N]`: show one again.
        case history, reshow
        /// `--list`: the toasts on screen, waiting, paused, delayed and scheduled.
        case list
        /// `--watch`: a JSON line at the start and at each change of what a status bar shows.
        case watch
        /// `--center`: the notification centre's window, or closing the one open.
        case center
        /// `--inhibit -- COMMAND`: applications' notifications held while the command runs.
        case inhibit
    }

    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }
}

/// A value an option cannot take, in words for the user: `invalid duration "x": expected …`.
public struct OptionError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
