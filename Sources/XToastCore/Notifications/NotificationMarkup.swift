/// A notification's body, in the spec's markup subset (`<b> <i> <u> <a href> <img alt>`), made
/// into markup that cannot break the box: the body comes from any application, and Pango's own
/// markup would let it set sizes, fonts and colours. Bold, italic and underline are kept; a link
/// stays a link (`<a href="URL">`, which the toast draws and opens: `LinkedMarkup`) when its URL
/// may be opened (`Link.openable`), and keeps only its text otherwise; an image becomes its
/// `alt` text; `<br>` a line break. Any other tag, and any `<`, `>` or `&` that starts nothing
/// known, is shown as the text it is.
public enum NotificationMarkup {
    /// Scalars (so characters, too) of markup made at most: the toast shows a few lines, and the
    /// command cuts its text at `MessageText.characterLimit`, which must not fall inside a tag.
    public static let outputLimit = 3000
    /// Tags open at once at most.
    static let depthLimit = 16

    /// The body as Pango markup: well formed whatever the input. Read scalar by scalar, never
    /// by `Character`: a `<` and the combining mark or joiner after it are one grapheme, and a
    /// `== "<"` on it would let the `<` through raw. So no `<`, `>` or `&` reaches Pango but in
    /// the markup written here.
    public static func sanitize(_ body: String) -> String {
        var output: [Unicode.Scalar] = []
        var open: [String] = []
        let scalars = Array(body.unicodeScalars.prefix(outputLimit * 2))
        var index = 0

        func emit(_ text: String) { output.append(contentsOf: text.unicodeScalars) }

        while index < scalars.count && output.count < outputLimit {
            let scalar = scalars[index]
            switch scalar {
            case "<":
                if let end = scalars[index...].prefix(1024).firstIndex(of: ">"), let tag = Tag(scalars[(index + 1)..<end]) {
                    let start = index
                    index = end + 1
                    switch tag {
                    case .open(let name) where ["b", "i", "u"].contains(name):
                        // Deeper nesting changes nothing more, and its closing tags would be unbounded.
                        if open.count < Self.depthLimit {
                            open.append(name)
                            emit("<\(name)>")
                        }
                    case .close(let name) where ["b", "i", "u", "a"].contains(name):
                        // Out of order, the tags above it close with it; one never opened goes.
                        if let depth = open.lastIndex(of: name) {
                            while open.count > depth { emit("</\(open.removeLast())>") }
                        }
                    case .link(let href):
                        // A link in a link, or one past the bounds, keeps its text alone.
                        if let tag = href.flatMap(Link.openable).map({ "<a href=\"\(escape($0))\">" }), !open.contains("a"),
                            open.count < Self.depthLimit, output.count + tag.unicodeScalars.count <= Self.outputLimit
                        {
                            open.append("a")
                            emit(tag)
                        }
                    case .open("img"), .close("img"): break
                    case .image(let alt): emit(escape(alt))
                    case .open("br"): emit("\n")
                    default:
                        emit(escape(String(String.UnicodeScalarView(scalars[start..<index]))))
                    }
                    continue
                }
                emit("&lt;")
            case ">": emit("&gt;")
            case "&":
                if let entity = entity(in: scalars, at: index) {
                    emit(entity)
                    index += entity.unicodeScalars.count
                    continue
                }
                emit("&amp;")
            default: output.append(scalar)
            }
            index += 1
        }
        while let name = open.popLast() { emit("</\(name)>") }
        return String(String.UnicodeScalarView(output))
    }

    /// The text of sanitised markup (`sanitize`'s), without its tags and with its entities
    /// read: what a terminal or a list shows of a body.
    public static func plain(_ markup: String) -> String {
        var output = String.UnicodeScalarView()
        var inTag = false
        var entity: String.UnicodeScalarView?
        let entities: [String: Unicode.Scalar] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        for scalar in markup.unicodeScalars {
            if inTag {
                inTag = scalar != ">"
            } else if var name = entity {
                if scalar == ";" {
                    output.append(entities[String(name)] ?? " ")
                    entity = nil
                } else if name.count < 8 {
                    name.append(scalar)
                    entity = name
                } else {
                    output.append(contentsOf: "&".unicodeScalars + name)
                    output.append(scalar)
                    entity = nil
                }
            } else if scalar == "<" {
                inTag = true
            } else if scalar == "&" {
                entity = String.UnicodeScalarView()
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// Plain text (a summary, a label) as markup that shows it as it is: every `&`, `<`, `>`
    /// and quote scalar escaped, whatever mark follows it.
    public static func escape(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output.append(contentsOf: "&amp;".unicodeScalars)
            case "<": output.append(contentsOf: "&lt;".unicodeScalars)
            case ">": output.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": output.append(contentsOf: "&quot;".unicodeScalars)
            case "'": output.append(contentsOf: "&apos;".unicodeScalars)
            default: output.append(scalar)
            }
        }
        return String(output)
    }

    /// The tags of the subset, read from the scalars between `<` and `>`.
    enum Tag: Equatable {
        case open(String), close(String)
        /// `<img src=… alt=…>`: its alt text.
        case image(alt: String)
        /// `<a href=…>`: its URL, as written.
        case link(href: String?)

        init?(_ inside: ArraySlice<Unicode.Scalar>) {
            var text = inside
            let closing = text.first == "/"
            if closing { text = text.dropFirst() }
            let letters = text.prefix { $0.isASCII && $0.properties.isAlphabetic }
            let name = String(String.UnicodeScalarView(letters)).lowercased()
            let rest = text.dropFirst(letters.count)
            let isSpace = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace }
            guard !name.isEmpty, rest.first.map({ [" ", "/", "\t", "\n"].contains($0) }) ?? true else { return nil }
            if closing {
                guard rest.allSatisfy(isSpace) else { return nil }
                self = .close(name)
            } else if name == "img" {
                self = .image(alt: Tag.attribute("alt", in: rest) ?? "")
            } else if ["b", "i", "u", "br"].contains(name) {
                guard rest.allSatisfy({ isSpace($0) || $0 == "/" }) else { return nil }
                self = .open(name)
            } else if name == "a" {
                self = .link(href: Tag.attribute("href", in: rest))
            } else {
                return nil
            }
        }

        /// A quoted attribute's value, its basic entities read.
        static func attribute(_ name: String, in scalars: ArraySlice<Unicode.Scalar>) -> String? {
            let scalars = Array(scalars)
            for quote in ["\"", "'"] as [Unicode.Scalar] {
                let marker = Array("\(name)=\(quote)".unicodeScalars)
                guard scalars.count > marker.count else { continue }
                for start in 0...(scalars.count - marker.count) where scalars[start..<start + marker.count].elementsEqual(marker) {
                    let from = start + marker.count
                    guard let end = scalars[from...].firstIndex(of: quote) else { break }
                    return replacingEntities(scalars[from..<end])
                }
            }
            return nil
        }

        /// The five basic entities, read.
        private static func replacingEntities(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
            let entities: [(String, Unicode.Scalar)] = [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")]
            var output = String.UnicodeScalarView()
            var rest = scalars
            while let first = rest.first {
                if first == "&", let (entity, scalar) = entities.first(where: { rest.starts(with: $0.0.unicodeScalars) }) {
                    output.append(scalar)
                    rest = rest.dropFirst(entity.unicodeScalars.count)
                } else {
                    output.append(first)
                    rest = rest.dropFirst()
                }
            }
            return String(output)
        }
    }

    /// A character reference Pango reads (`&amp;`, `&#233;`, `&#xE9;`), nil when none starts here.
    static func entity(in scalars: [Unicode.Scalar], at index: Int) -> String? {
        let tail = scalars[index..<min(index + 12, scalars.count)]
        for name in ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"] where tail.starts(with: name.unicodeScalars) { return name }
        guard tail.starts(with: "&#".unicodeScalars), let semicolon = tail.firstIndex(of: ";") else { return nil }
        let digits = String(String.UnicodeScalarView(tail[(index + 2)..<semicolon]))
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        // A control character or NUL would end or break the text as Pango reads it.
        guard let value, Unicode.Scalar(value) != nil, value >= 0x20 || value == 0x0a || value == 0x09, value != 0x7f else {
            return nil
        }
        return String(String.UnicodeScalarView(tail[...semicolon]))
    }
}
