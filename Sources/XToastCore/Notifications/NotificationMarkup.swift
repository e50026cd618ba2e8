/// A notification's body, in the spec's markup subset (`<b> <i> <u> <a href> <img alt>`), made
/// into Pango markup that cannot break the box: the body comes from any application, and
/// Pango's own markup would let it set sizes, fonts and colours. Bold, italic and underline are
/// kept; a link keeps its text; an image becomes its `alt` text; `<br>` a line break. Any other
/// tag, and any `<`, `>` or `&` that starts nothing known, is shown as the text it is.
public enum NotificationMarkup {
    /// Characters of markup made at most: the toast shows a few lines, and the command cuts
    /// its text at `MessageText.characterLimit`, which must not fall inside a tag.
    public static let outputLimit = 3000
    /// Tags open at once at most.
    static let depthLimit = 16

    /// The body as Pango markup: well formed whatever the input.
    public static func sanitize(_ body: String) -> String {
        var output = ""
        var open: [String] = []
        var count = 0
        let characters = Array(body.prefix(outputLimit * 2))
        var index = 0

        func emit(_ text: String) {
            output += text
            count += text.count
        }

        while index < characters.count && count < outputLimit {
            let character = characters[index]
            switch character {
            case "<":
                if let end = characters[index...].prefix(1024).firstIndex(of: ">"), let tag = Tag(String(characters[(index + 1)..<end])) {
                    let start = index
                    index = end + 1
                    switch tag {
                    case .open(let name) where ["b", "i", "u"].contains(name):
                        // Deeper nesting changes nothing more, and its closing tags would be unbounded.
                        if open.count < Self.depthLimit {
                            open.append(name)
                            emit("<\(name)>")
                        }
                    case .close(let name) where ["b", "i", "u"].contains(name):
                        // Out of order, the tags above it close with it; one never opened goes.
                        if let depth = open.lastIndex(of: name) {
                            while open.count > depth { emit("</\(open.removeLast())>") }
                        }
                    case .open("a"), .close("a"): break
                    case .open("img"), .close("img"): break
                    case .image(let alt): emit(escape(alt))
                    case .open("br"): emit("\n")
                    default:
                        emit(escape(String(characters[start..<index])))
                    }
                    continue
                }
                emit("&lt;")
            case ">": emit("&gt;")
            case "&":
                if let entity = entity(in: characters, at: index) {
                    emit(entity)
                    index += entity.count
                    continue
                }
                emit("&amp;")
            default: emit(String(character))
            }
            index += 1
        }
        while let name = open.popLast() { output += "</\(name)>" }
        return output
    }

    /// Plain text (a summary, a label) as markup that shows it as it is.
    public static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            default: output.append(character)
            }
        }
        return output
    }

    /// The tags of the subset, read from what is between `<` and `>`.
    enum Tag: Equatable {
        case open(String), close(String)
        /// `<img src=… alt=…>`: its alt text.
        case image(alt: String)

        init?(_ inside: String) {
            var text = Substring(inside)
            let closing = text.hasPrefix("/")
            if closing { text = text.dropFirst() }
            let name = text.prefix { $0.isASCII && $0.isLetter }.lowercased()
            guard !name.isEmpty else { return nil }
            let rest = text.dropFirst(name.count)
            guard rest.isEmpty || rest.first == " " || rest.first == "/" || rest.first == "\t" || rest.first == "\n" else { return nil }
            if closing {
                guard rest.allSatisfy(\.isWhitespace) else { return nil }
                self = .close(name)
            } else if name == "img" {
                self = .image(alt: Tag.attribute("alt", in: String(rest)) ?? "")
            } else if ["b", "i", "u", "br"].contains(name) {
                guard rest.allSatisfy({ $0.isWhitespace || $0 == "/" }) else { return nil }
                self = .open(name)
            } else if name == "a" {
                self = .open(name)
            } else {
                return nil
            }
        }

        /// A quoted attribute's value, its basic entities read.
        static func attribute(_ name: String, in text: String) -> String? {
            let characters = Array(text)
            for quote in ["\"", "'"] as [Character] {
                let marker = Array("\(name)=\(quote)")
                guard characters.count > marker.count else { continue }
                for start in 0...(characters.count - marker.count) where Array(characters[start..<start + marker.count]) == marker {
                    let from = start + marker.count
                    guard let end = characters[from...].firstIndex(of: quote) else { break }
                    return String(characters[from..<end]).replacingEntities
                }
            }
            return nil
        }
    }

    /// A character reference Pango reads (`&amp;`, `&#233;`, `&#xE9;`), nil when none starts here.
    static func entity(in characters: [Character], at index: Int) -> String? {
        let tail = String(characters[index..<min(index + 12, characters.count)])
        for name in ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"] where tail.hasPrefix(name) { return name }
        guard tail.hasPrefix("&#"), let semicolon = tail.firstIndex(of: ";") else { return nil }
        let digits = tail[tail.index(tail.startIndex, offsetBy: 2)..<semicolon]
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        // A control character or NUL would end or break the text as Pango reads it.
        guard let value, let scalar = Unicode.Scalar(value), value >= 0x20 || value == 0x0a || value == 0x09, value != 0x7f else {
            return nil
        }
        _ = scalar
        return String(tail[...semicolon])
    }
}

extension String {
    /// The five basic entities, read.
    fileprivate var replacingEntities: String {
        let entities: [(String, Character)] = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")]
        var output = ""
        var rest = Substring(self)
        while let first = rest.first {
            if first == "&", let (entity, character) = entities.first(where: { rest.hasPrefix($0.0) }) {
                output.append(character)
                rest = rest.dropFirst(entity.count)
            } else {
                output.append(first)
                rest = rest.dropFirst()
            }
        }
        return output
    }
}
