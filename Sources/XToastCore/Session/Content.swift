/// What a toast shows besides its message.
public struct ToastContent: Equatable, Sendable {
    public var message: String
    /// A bold line above the message (`--title`).
    public var title: String?
    public var icon: Icon?
    public var progress: Progress?
    /// The message (and title) are Pango markup (`--markup`); otherwise plain text, always.
    public var markup: Bool
    /// A turning activity indicator in the icon's place (`--spinner`).
    public var spinner: Bool
    /// The user's icon theme (XSETTINGS `Net/IconThemeName`), searched before hicolor.
    public var iconTheme: String?
    /// Labels of buttons in a row under the text (`--button`); a click on one ends the toast.
    public var buttons: [String]
    /// `--reply`: which button opens the reply entry, and its placeholder.
    public var reply: ReplyField?

    public init(
        message: String, title: String? = nil, icon: Icon? = nil, progress: Progress? = nil, markup: Bool = false,
        spinner: Bool = false, buttons: [String] = []
    ) {
        self.buttons = buttons
        self.message = message
        self.title = title
        self.icon = icon
        self.progress = progress
        self.markup = markup
        self.spinner = spinner
    }
}

/// An icon: one of the built-in vector drawings, an image file, or a freedesktop icon name.
public enum Icon: Equatable, Sendable, CustomStringConvertible {
    case success, error, info, warning
    case file(String)
    case named(String)

    /// The built-in vector drawings, as `--icon` names them.
    public static let builtIn: [Icon] = [.success, .error, .info, .warning]

    /// As `--icon` takes it.
    public var description: String {
        switch self {
        case .success: "success"
        case .error: "error"
        case .info: "info"
        case .warning: "warning"
        case .file(let path): path
        case .named(let name): name
        }
    }

    /// `success`, `error`, `info`, `warning`; a path (with a `/`) is a file; else an icon name.
    public init?(parsing text: String) {
        if let icon = Self.builtIn.first(where: { $0.description == text }) {
            self = icon
            return
        }
        switch text {
        case "": return nil
        default:
            if text.contains("/") {
                self = .file(text)
            } else {
                guard text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else { return nil }
                self = .named(text)
            }
        }
    }
}

/// A progress bar's value, in percent.
public struct Progress: Equatable, Sendable, CustomStringConvertible {
    /// 0 and up; past 100 the bar shows the overflow.
    public var percent: Double
    /// Drawn in the alternate colour (`N!`: muted, for instance).
    public var alternate: Bool

    public init(percent: Double, alternate: Bool = false) {
        self.percent = percent
        self.alternate = alternate
    }

    /// As `--progress` takes it.
    public var description: String { plain(percent) + (alternate ? "!" : "") }

    /// The largest value a bar takes: twice full.
    public static let maximum = 200.0

    /// Parses `40`, `40.5`, `40!` (alternate colour); 0 to 200.
    public init?(parsing text: String) {
        var number = Substring(text)
        let alternate = number.hasSuffix("!")
        if alternate { number = number.dropLast() }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number),
            (0...Progress.maximum).contains(value)
        else { return nil }
        self.init(percent: value, alternate: alternate)
    }

    /// The filled part, 0...1, and the part past full, 0...1.
    public var fractions: (filled: Double, overflow: Double) {
        (min(percent, 100) / 100, max(min(percent, Progress.maximum) - 100, 0) / 100)
    }
}

extension ToastContent {
    /// A line read with `--stdin` applied, xob-style: a number sets the progress (`N!` in the
    /// alternate colour), other text the message. Nil for a line that changes nothing.
    public func updated(byLine line: String) -> ToastContent? {
        let trimmed = line.trimmingCharacters
        guard !trimmed.isEmpty else { return nil }
        var next = self
        if let progress = Progress(parsing: trimmed) {
            next.progress = progress
        } else if let text = try? MessageText.normalize(trimmed) {
            next.message = text
        }
        return next == self ? nil : next
    }

    /// What a `--run` toast shows once its command ended with `status` (128+N: signal N).
    public func finished(command: String, status: Int32) -> ToastContent {
        var next = self
        next.spinner = false
        next.icon = status == 0 ? .success : .error
        next.progress = nil
        let name = command.split(separator: " ").first.map(String.init) ?? command
        next.message =
            status == 0
            ? "\(message)\n\(name) finished"
            : status > 128 ? "\(message)\n\(name) was killed by signal \(status - 128)" : "\(message)\n\(name) failed (exit \(status))"
        return next
    }
}
