/// `xtoast --list`: what is up on the display now, from the queue's lists and the tickets,
/// for status bars and scripts. Everything in it was written by some client of the display, so
/// each value is one the ticket's own checks let through, and printing escapes it again.
public enum Listing {
    /// Where a toast is.
    public enum State: String, Sendable, CaseIterable {
        /// Its first frame is out (the queue's toast, or a stacked one).
        case showing
        /// In the queue, behind another (or about to show).
        case waiting
        /// Standing aside for a pause (`xtoast --pause`).
        case paused
        /// Standing aside in its place for a fullscreen window or a locked screen; or out of the
        /// queue for now (a `--run` command's first moments, before it has a toast to show).
        case delayed
        /// Waiting for its `--in`/`--at` time.
        case scheduled
    }

    /// One toast, as its ticket says.
    public struct Toast: Equatable, Sendable {
        public var state: State
        public var pid: Int
        public var tag: String?
        /// When a scheduled toast is due, seconds since 1970 (UTC).
        public var due: Int?
        public var buttons: [String]
        /// Where it is on screen, once shown.
        public var box: Rect?
        /// What it says, as it published it (nil: it did not).
        public var said: Said? = nil
    }

    /// What a toast says, for `--list`: `_XTOAST_TEXT` on its ticket window, written once as it
    /// joins: its title and its message, as plain text, cut. Another client can write anything
    /// there, so it is read bounded and printed escaped; only `--list` reads it.
    public struct Said: Equatable, Sendable {
        public var title: String?
        public var text: String

        /// Larger values are not read.
        public static let byteLimit = 2048
        static let titleLimit = 120
        static let textLimit = 400
        /// Between the title and the text.
        static let separator: Unicode.Scalar = "\u{1E}"

        /// What a toast with `title` over `message` says (`markup`: both are Pango markup).
        public init(title: String?, message: String, markup: Bool) {
            func plain(_ text: String, _ limit: Int) -> String {
                let text = markup ? NotificationMarkup.plain(text) : text
                return String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != Self.separator }).prefix(limit))
            }
            self.title = title.map { plain($0, Self.titleLimit) }.flatMap { $0.isEmpty ? nil : $0 }
            self.text = plain(message, Self.textLimit)
        }

        public var encoded: [UInt8] { Array(((title ?? "") + String(Self.separator) + text).utf8) }

        /// Nil for a value that is too long, not UTF-8, or not one title and one text.
        public init?(decoding bytes: some Collection<UInt8>) {
            guard bytes.count <= Self.byteLimit, let value = String(validating: bytes, as: UTF8.self) else { return nil }
            let parts = value.unicodeScalars.split(separator: Self.separator, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            let title = String(String.UnicodeScalarView(parts[0]))
            self.title = title.isEmpty ? nil : String(title.prefix(Self.titleLimit))
            text = String(String(String.UnicodeScalarView(parts[1])).prefix(Self.textLimit))
        }

        /// One line: `Title: text`.
        var line: String {
            let text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            return title.map { text.isEmpty ? $0 : "\($0): \(text)" } ?? text
        }
    }

    /// A ticket as the server answered: its id, what it says, and its `_XTOAST_SHOWN`.
    public typealias Found = (entry: UInt, ticket: Ticket, shown: QueueMember.Shown?)

    /// The toasts, the queue's first (on screen, or next), then the stacked, the waiting, the
    /// delayed and the scheduled ones. `queue`, `stack` and `scheduled` are the root's lists;
    /// `tickets` every live ticket among the root's children; `paused` whether a pause holds now.
    public static func toasts(
        queue: [UInt], stack: [UInt], scheduled: [UInt], tickets: [Found], paused: Bool, said: [UInt: Said] = [:]
    ) -> [Toast] {
        var byEntry: [UInt: Found] = [:]
        for found in tickets { byEntry[found.entry] = found }
        var listed = Set<UInt>()
        func toast(_ entry: UInt, _ state: (Found) -> State) -> Toast? {
            guard let found = byEntry[entry], listed.insert(entry).inserted else { return nil }
            return Toast(
                state: state(found), pid: found.ticket.pid, tag: found.ticket.tag, due: found.ticket.at, buttons: found.ticket.buttons,
                box: found.shown?.box, said: said[entry])
        }
        var result: [Toast] = []
        result += queue.compactMap { entry in
            toast(entry) { found in
                if paused && found.ticket.pause == .held { return .paused }
                if found.ticket.pause == .aside { return .delayed }
                return found.shown != nil ? .showing : .waiting
            }
        }
        result += stack.compactMap { toast($0) { $0.shown != nil ? .showing : .waiting } }
        result += scheduled.compactMap { toast($0) { _ in .scheduled } }
        result += tickets.map(\.entry).compactMap { toast($0) { _ in .delayed } }
        // The ones on screen first, each group in its own order.
        return State.allCases.flatMap { state in result.filter { $0.state == state } }
    }

    /// How many toasts are in each state, every state named (a bar's counter).
    public static func counts(_ toasts: [Toast]) -> [(State, Int)] {
        State.allCases.map { state in (state, toasts.filter { $0.state == state }.count) }
    }

    // MARK: Printing

    /// The lines `--list` prints: the pause first, if any (`paused until 18:30`, `paused until
    /// --resume`), then who holds applications' notifications, if any (`inhibited by obs (screen
    /// sharing)`), then a toast a line: state, pid, [tag], due time, buttons. `time` writes a
    /// wall-clock second in the local zone.
    public static func lines(_ toasts: [Toast], pause: Pause?, inhibited: Inhibited? = nil, time: (Int) -> String) -> [String] {
        var lines: [String] = []
        if let pause { lines.append("paused until " + (pause.end.map(time) ?? "--resume")) }
        if let inhibited { lines.append(TerminalText.line("inhibited by " + inhibited.text)) }
        for toast in toasts {
            var line = toast.state.rawValue.padding(to: 10) + " pid \(toast.pid)"
            if let tag = toast.tag { line += "  [\(tag)]" }
            if let due = toast.due, toast.state == .scheduled { line += "  at " + time(due) }
            if let said = toast.said?.line, !said.isEmpty { line += "  " + String(said.prefix(KeptNotifications.listedText)) }
            if !toast.buttons.isEmpty { line += "  buttons: " + toast.buttons.joined(separator: ", ") }
            lines.append(TerminalText.line(line))
        }
        return lines
    }

    /// `--list --json`: first the display's pause and inhibition, `{"paused":false,
    /// "inhibited":false}`, or `{"paused":true,"until":SECONDS,...}` (null: until `--resume`),
    /// `{...,"inhibited":true,"by":["obs (screen sharing)"]}`, then a toast a line.
    public static func json(_ toasts: [Toast], pause: Pause?, inhibited: Inhibited? = nil) -> [String] {
        var head = JSONLine()
        head.add(pause: pause, inhibited: inhibited)
        return [head.text]
            + toasts.map { toast in
                var object = JSONLine()
                object.add("state", toast.state.rawValue)
                object.add("pid", toast.pid)
                object.add("tag", toast.tag)
                object.add("due", toast.state == .scheduled ? toast.due : nil)
                object.add("buttons", toast.buttons)
                object.add("x", toast.box?.x)
                object.add("y", toast.box?.y)
                object.add("width", toast.box?.width)
                object.add("height", toast.box?.height)
                object.add("title", toast.said?.title)
                object.add("text", toast.said?.text)
                return object.text
            }
    }
}
