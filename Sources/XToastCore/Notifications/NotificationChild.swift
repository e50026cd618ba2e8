/// How the notification service and a toast process it started talk, over the child's standard
/// input and output (pipes). The service starts a child before it has work for it (a spare,
/// warm when the next `Notify` comes); the child reads its command line from standard input,
/// then reports on standard output: `queued` once its place in the queue is on the server (the
/// service hands out the next notification only then: toasts join in the order the calls
/// came), and at its end `--print-outcome`'s word, a button's label after `button`, and
/// `time=N`, the X server time of the click that ended it (the activated application's
/// startup-notification id carries it, so that its window may take the focus).
public enum NotificationChild {
    /// The environment variable that makes `xtoast` a notification's toast process; the
    /// service sets it for its children only.
    public static let environmentVariable = "XTOAST_NOTIFICATION_CHILD"
    /// The longest command line a child reads: far above what `NotificationToast` makes (its
    /// texts are cut), and small enough for one pipe's buffer (see `pipeBuffer`).
    public static let argumentsByteLimit = 192 << 10
    /// The pipe buffer the service asks for, so that handing a command line over never blocks.
    public static let pipeBuffer = 256 << 10
    /// The line a child writes once its place in the queue is on the server.
    public static let queuedLine = "queued"
    static let timePrefix = "time="

    /// A command line as the child reads it: each argument followed by a 0 byte (no argument
    /// contains one: D-Bus strings cannot, and any that came would be dropped here).
    public static func encode(_ arguments: [String]) -> [UInt8] {
        arguments.flatMap { Array($0.utf8).filter { $0 != 0 } + [0] }
    }

    /// The command line in `bytes` (`encode`'s): empty when there is none (the service ended
    /// before it had work for the child), nil when it is cut short or too long.
    public static func decode(_ bytes: [UInt8]) -> [String]? {
        if bytes.isEmpty { return [] }
        guard bytes.count <= argumentsByteLimit, bytes.last == 0 else { return nil }
        return bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The line that reports the click's X server time.
    public static func timeLine(_ time: UInt32) -> String { "\(timePrefix)\(time)" }

    /// What a child wrote on its standard output.
    public struct Report: Equatable, Sendable {
        /// Whether its place in the queue was on the server.
        public var queued = false
        /// `--print-outcome`'s word, then a button's label.
        public var outcome: [String] = []
        /// The X server time of the click that ended the toast.
        public var clickTime: UInt32?

        public init(queued: Bool = false, outcome: [String] = [], clickTime: UInt32? = nil) {
            (self.queued, self.outcome, self.clickTime) = (queued, outcome, clickTime)
        }

        /// Reads the lines in `text` (a label may be any line: the outcome's lines are known by
        /// their place, the time only last).
        public init(parsing text: String) {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            if lines.first == NotificationChild.queuedLine {
                queued = true
                lines.removeFirst()
            }
            // A button's label or a reply's text follows the word.
            let outcomeLines = lines.first == "button" || lines.first == "replied" ? 2 : 1
            if lines.count > outcomeLines, let last = lines.last, last.hasPrefix(NotificationChild.timePrefix),
                let time = UInt32(last.dropFirst(NotificationChild.timePrefix.count))
            {
                clickTime = time
                lines.removeLast()
            }
            outcome = lines
        }
    }

    /// An `ActivationToken` for an action invoked by a click at X server time `time`: on X11 a
    /// startup-notification id, whose `_TIME` suffix lets the activated application's window
    /// take the focus (the window manager's focus-stealing prevention compares it with the
    /// user's last input). Unique: the service's process and the notification's id, which is
    /// never reused.
    public static func activationToken(service pid: Int32, id: UInt32, time: UInt32) -> String {
        "xtoast-\(pid)-notification-\(id)_TIME\(time)"
    }
}
