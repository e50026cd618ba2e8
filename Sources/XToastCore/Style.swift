/// Everything that decides how a toast looks and moves. `Style.toast` is the one home of the
/// default design's numbers; each is changed by the option named beside it.
public struct Style: Equatable, Sendable {
    /// Pango font description; the size is in logical pixels (`--font`).
    public var font: String
    /// Text colour (`--foreground`).
    public var foreground: Color
    /// Box colour; its alpha shows only under a compositor (`--background`).
    public var background: Color
    /// Corner radius in logical pixels (`--radius`).
    public var cornerRadius: Double
    /// Space between the box edge and the text, logical pixels (`--padding`).
    public var padding: Double
    /// The box is never lower than this, logical pixels (design constant).
    public var minimumHeight: Double
    /// The widest the box may be, logical pixels; nil: `maximumWidthFraction` of the monitor (`--max-width`).
    public var maximumWidth: Double?
    /// The default maximum width as a fraction of the monitor width (design constant).
    public var maximumWidthFraction: Double
    /// Text past this many lines is ellipsized (`--max-lines`).
    public var maximumLines: Int
    /// Distance from the monitor edge, logical pixels (design constant; `--offset` adds to it).
    public var edgeMargin: Double
    /// Where on the monitor the box sits (`--position`).
    public var position: Position
    /// Shift of the box in logical pixels, x right and y down (`--offset`).
    public var offset: Offset
    /// Seconds to fade in (`--fade-in`).
    public var fadeIn: Double
    /// Seconds to fade out (`--fade-out`).
    public var fadeOut: Double
    /// The easing of both fades (`--easing`).
    public var easing: TimingCurve
    /// Seconds a toast takes to move and resize into the place of one with the same tag (`--tag`).
    public var replaceDuration: Double
    /// Space between stacked toasts, logical pixels (`--stack`).
    public var stackGap: Double
    /// Seconds stacked toasts take to close the gap one leaves (`--stack`).
    public var stackSlideDuration: Double

    /// The default look: the "toast" design (an iOS WToast), to its numbers.
    public static let toast = Style(
        font: "Sans 14",
        foreground: Color(red: 1, green: 1, blue: 1),
        background: Color(red: 0, green: 0, blue: 0, alpha: 0.8),
        cornerRadius: 5,
        padding: 10,
        minimumHeight: 38,
        maximumWidth: nil,
        maximumWidthFraction: 1.0 / 3.0,
        maximumLines: 12,
        edgeMargin: 15,
        position: .bottom,
        offset: Offset(x: 0, y: 0),
        fadeIn: 0.2,
        fadeOut: 0.8,
        easing: .easeInOut,
        replaceDuration: 0.25,
        stackGap: 8,
        stackSlideDuration: 0.25)

    /// The monitor width `--render-png` lays out for, having no monitor (device pixels).
    public static let headlessMonitorWidth = 1920

    /// The motion this style asks for.
    public var motion: Motion { .fade(in: fadeIn, out: fadeOut, curve: easing) }
}

/// A displacement in logical pixels, x to the right and y downwards.
public struct Offset: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Parses `X,Y` (plain decimals, either may be negative, spaces allowed around them); nil
    /// otherwise.
    public init?(parsing text: String) {
        func number(_ part: Substring) -> Double? {
            let trimmed = part.trimmingCharacters
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
                let value = Double(trimmed), abs(value) <= 100_000
            else { return nil }
            return value
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = number(parts[0]), let y = number(parts[1]) else { return nil }
        self.init(x: x, y: y)
    }
}
