/// What a screen reader is told when a toast appears, and how it is reached: the rules, without
/// any I/O (XToastX11's `ScreenReader` does the talking).
public enum Announcement {
    /// Announcements longer than this are cut at a word: a toast shows at most a dozen lines, and
    /// a screen reader user has to listen to all of it before anything else is said.
    public static let characterLimit = 400

    /// The sentence to speak for `content`: the title, then the message, then the progress as a
    /// percentage; markup taken out, control characters and line breaks made spaces, runs of
    /// white space made one. Nil when nothing is left to say.
    public static func text(for content: ToastContent) -> String? {
        func clean(_ text: String) -> String { spoken(content.markup ? withoutMarkup(text) : text) }
        var sentence = ""
        func add(_ part: String, after separator: String) {
            guard !part.isEmpty else { return }
            // "Title. Message, 40%", unless what comes before ends a sentence or clause itself.
            let ends = sentence.last.map { ".,:;!?…".contains($0) } ?? true
            sentence += sentence.isEmpty ? part : (ends ? " " : separator) + part
        }
        add(content.title.map(clean) ?? "", after: ". ")
        add(clean(content.message), after: ". ")
        if let progress = content.progress { add(plain(progress.percent.rounded()) + "%", after: ", ") }
        return sentence.isEmpty ? nil : bounded(sentence)
    }

    /// Line breaks, tabs, control characters, U+FFFD (what `MessageText` put in their place) and
    /// the bidi and zero-width format characters read as nothing or as noise: all become spaces,
    /// then every run of white space one space, with none at the ends.
    static func spoken(_ text: String) -> String {
        var result = ""
        var pendingSpace = false
        for scalar in text.unicodeScalars.prefix(MessageText.characterLimit * MessageText.scalarsPerCharacter) {
            let value = scalar.value
            let blank =
                scalar.properties.isWhitespace || value < 0x20 || (0x7f...0x9f).contains(value) || value == 0xfffd
                || (0x200b...0x200f).contains(value) || (0x202a...0x202e).contains(value) || (0x2066...0x2069).contains(value)
            if blank {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result.unicodeScalars.append(" ") }
            pendingSpace = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Pango markup's tags left out and its entities (`&amp;`, `&#8364;`) decoded; a `<` that
    /// opens no tag stays, as Pango would show text that does not parse.
    static func withoutMarkup(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "<" || $0 == "&" }) {
            result += rest[..<open]
            rest = rest[open...]
            if rest.first == "<" {
                guard let close = rest.firstIndex(of: ">") else { break }
                rest = rest[rest.index(after: close)...]
            } else if let semicolon = rest.prefix(12).firstIndex(of: ";"),
                let decoded = entity(rest[rest.index(after: rest.startIndex)..<semicolon])
            {
                result.unicodeScalars.append(decoded)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    private static func entity(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.first == "#" else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
    }

    /// At most `characterLimit` characters, cut after the last whole word that fits.
    static func bounded(_ text: String) -> String {
        guard text.count > characterLimit else { return text }
        let head = text.prefix(characterLimit)
        let cut = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        return String(cut)
    }
}

/// How an announcement reaches the screen reader, decided from what the session bus said.
public enum ScreenReaderRoute: Equatable, Sendable {
    /// Orca's remote controller (`PresentMessage`): it speaks with the user's voice settings and
    /// flashes the message on a braille display, as it presents notifications.
    case orca(OrcaService)
    /// Speech Dispatcher, which every Linux screen reader speaks through.
    case speechDispatcher
    /// No screen reader runs (or none that says so): nothing is said.
    case none

    /// The names Orca's remote controller has had: `org.gnome.Orca1.Service` from Orca 51,
    /// `org.gnome.Orca.Service` in 49 and 50.
    public struct OrcaService: Equatable, Sendable {
        public var busName: String
        public var path: String
        public var interface: String { busName }

        public static let current = OrcaService(busName: "org.gnome.Orca1.Service", path: "/org/gnome/Orca1/Service")
        public static let older = OrcaService(busName: "org.gnome.Orca.Service", path: "/org/gnome/Orca/Service")
    }

    /// Orca's own service, when it has one, is the surest sign and the best way in. Otherwise
    /// the accessibility bus launcher's `org.a11y.Status.ScreenReaderEnabled` (GNOME's "screen
    /// reader" switch, until at-spi2-core 2.61 removed it) sends the text to Speech Dispatcher.
    /// `IsEnabled` is not enough: it only says that some assistive technology (an on-screen
    /// keyboard, a test tool) once listened, and older launchers never turn it off again.
    /// A nil answer (no reply in time, an error) counts as no.
    public static func choose(currentOrcaRuns: Bool?, olderOrcaRuns: Bool?, screenReaderEnabled: Bool?) -> ScreenReaderRoute {
        if currentOrcaRuns == true { return .orca(.current) }
        if olderOrcaRuns == true { return .orca(.older) }
        if screenReaderEnabled == true { return .speechDispatcher }
        return .none
    }
}
