/// How long a toast holds between its fades.
public enum DisplayDuration: Equatable, Sendable, CustomStringConvertible {
    /// From the length of the text: clamp(0.5 s + 60 ms a character, 2 s, 10 s).
    case automatic
    case seconds(Double)
    /// Until clicked or dismissed.
    case sticky

    /// `--duration short`.
    public static let short = 2.0
    /// `--duration long`.
    public static let long = 3.5
    /// The longest hold a number may ask for (a day); longer is surely a typo, use `sticky`.
    public static let maximum = 86_400.0

    /// The words `--duration` takes besides seconds.
    public static let words = ["auto", "short", "long", "sticky"]

    /// Parses `auto`, `short`, `long`, `sticky`, or seconds (`1.5`, `1.5s`, `1500ms`).
    public init?(parsing text: String) {
        switch text {
        case "auto": self = .automatic
        case "short": self = .seconds(Self.short)
        case "long": self = .seconds(Self.long)
        case "sticky": self = .sticky
        default:
            var number = Substring(text)
            var unit = 1.0
            if number.hasSuffix("ms") {
                number = number.dropLast(2)
                unit = 0.001
            } else if number.hasSuffix("s") {
                number = number.dropLast()
            }
            // Double("nan"), Double("inf") and hex floats parse; none is a duration.
            guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                let value = Double(number), value.isFinite
            else { return nil }
            let seconds = value * unit
            guard seconds <= Self.maximum else { return nil }
            // Millisecond precision, as documented.
            self = .seconds((seconds * 1000).rounded() / 1000)
        }
    }

    /// As `--duration` takes it.
    public var description: String {
        switch self {
        case .automatic: "auto"
        case .sticky: "sticky"
        case .seconds(let s): plain(s)
        }
    }

    /// The hold in seconds for a message, or nil for a sticky toast.
    public func hold(for message: String) -> Double? {
        switch self {
        case .automatic: Self.automaticHold(characters: message.count)
        case .seconds(let s): s
        case .sticky: nil
        }
    }

    /// Long enough to read: half a second plus 60 ms a character, between 2 and 10 seconds.
    public static func automaticHold(characters: Int) -> Double {
        min(max(0.5 + 0.06 * Double(characters), 2), 10)
    }
}
