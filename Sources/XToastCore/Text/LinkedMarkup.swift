/// `--markup` text with its links made Pango markup: Pango has no `<a>`, so each
/// `<a href="URL">text</a>` becomes a span that underlines its text (in the text's own colour,
/// which the user chose to read well on the box), and the text is marked so that the painter
/// finds where it went once Pango has read the markup. A link whose URL may not be opened
/// (`Link.openable`), and one inside another, keeps its text as plain text: nothing in the
/// toast looks like a link that a click would not open. Anything else is left as it is.
public struct LinkedMarkup: Equatable, Sendable {
    /// Pango markup: each openable link's text between `start` and `end`, in its span.
    public var markup: String
    /// Each marked link's URL, in the order of the text.
    public var links: [String]

    /// Marks the start and the end of a link's text: private-use characters, which no font
    /// draws and which the painter takes out again. Any in the text given are dropped; one
    /// slipped in as a character reference makes the markers disagree with `links`, and the
    /// painter then makes no link at all.
    public static let start: Unicode.Scalar = "\u{E000}"
    public static let end: Unicode.Scalar = "\u{E001}"
    /// How far a `<a` is looked at for its `>`: past a URL of `Link.lengthLimit` written with
    /// entities, it is not a link (and Pango will say what it makes of it).
    static let tagLimit = 8 * Link.lengthLimit

    public init(_ text: String) {
        var output = String.UnicodeScalarView()
        var links: [String] = []
        // For each `<a>` open: whether it is a marked link.
        var open: [Bool] = []
        let scalars = Array(text.unicodeScalars)
        // Scalars looked at past a `<a` in all: thousands of `<a` that never end are looked at
        // a few times over, not `tagLimit` times each.
        var budget = 4 * scalars.count + Self.tagLimit
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == Self.start || scalar == Self.end {
                index += 1
                continue
            }
            guard scalar == "<", let (tag, next) = Self.anchor(in: scalars, at: index, budget: &budget) else {
                output.append(scalar)
                index += 1
                continue
            }
            switch tag {
            case .open(let href):
                let url = open.contains(true) ? nil : href.flatMap(Link.openable)
                if let url { links.append(url) }
                output.append(contentsOf: url == nil ? "<span>".unicodeScalars : "<span underline=\"single\">\u{E000}".unicodeScalars)
                open.append(url != nil)
            case .close:
                // One never opened stays `</a>`, which Pango refuses, as it did.
                guard let marked = open.popLast() else {
                    output.append(contentsOf: scalars[index..<next])
                    break
                }
                output.append(contentsOf: marked ? "\u{E001}</span>".unicodeScalars : "</span>".unicodeScalars)
            }
            index = next
        }
        markup = String(output)
        self.links = links
    }

    /// A link's tag: `<a …>` with its `href`, or `</a>`.
    enum Anchor: Equatable {
        case open(href: String?)
        case close
    }

    /// The `<a …>` or `</a>` at `index`, and the index past it; nil when none starts there, or
    /// when finding its end would take more than the `budget` of scalars left (what it looks at
    /// is taken from it).
    static func anchor(in scalars: [Unicode.Scalar], at index: Int, budget: inout Int) -> (Anchor, Int)? {
        let window = scalars[index..<min(index + min(tagLimit, max(budget, 0)), scalars.count)]
        if window.starts(with: "</a".unicodeScalars) {
            let rest = window.dropFirst(3)
            guard let end = rest.firstIndex(where: { !$0.properties.isWhitespace }), scalars[end] == ">" else { return nil }
            budget -= end - index
            return (.close, end + 1)
        }
        guard window.starts(with: "<a".unicodeScalars), let after = window.dropFirst(2).first,
            after == ">" || after.properties.isWhitespace
        else { return nil }
        // The tag ends at the first `>` outside quotes (XML lets an attribute's value hold one).
        var quote: Unicode.Scalar?
        for position in (index + 2)..<window.endIndex {
            let scalar = scalars[position]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == ">" {
                budget -= position - index
                let inside = scalars[(index + 2)..<position]
                return (.open(href: NotificationMarkup.Tag.attribute("href", in: inside)), position + 1)
            }
        }
        budget -= window.count
        return nil
    }
}
