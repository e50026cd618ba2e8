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
    /// The easing of that move, and of stacked toasts closing a gap.
    public var transitionEasing: TimingCurve
    /// Space between the title and the message, logical pixels, and the title's most lines.
    public var titleGap: Double
    public var titleMaximumLines: Int
    /// The text is never wrapped narrower than this, logical pixels.
    public var minimumTextWidth: Double
    /// Space between stacked toasts, logical pixels (`--stack`).
    public var stackGap: Double
    /// Seconds stacked toasts take to close the gap one leaves (`--stack`).
    public var stackSlideDuration: Double
    /// How it comes and goes (`--animation`).
    public var animation: Animation
    /// How long it holds when `--duration` says nothing (the alert's 0.9 s).
    public var defaultDuration: DisplayDuration
    /// Seconds a toast still holds, at least, after the pointer leaves it: long enough to move
    /// the pointer off and still see it go (design constant; see `HeldTimeline`).
    public var hoverMinimumHold: Double
    /// What it does while its monitor shows a fullscreen window (`--fullscreen`).
    public var fullscreen: FullscreenChoice
    /// Seconds without keyboard or pointer input after which the user counts as away: a toast
    /// that appears then waits for them (`--idle`; 0: never). dunst's default.
    public var idleThreshold: Double
    /// Where the icon goes: beside the text, or at the HUD design's offsets (preset).
    public var layout: Layout
    /// The box is never narrower than this, logical pixels (the HUD's 96).
    public var minimumWidth: Double
    /// Icon size and the space between icon and text, logical pixels (preset).
    public var iconSize: Double
    public var iconGap: Double
    /// Built-in icons on a coloured disc, or as a plain glyph in the text colour (preset).
    public var iconStyle: IconStyle
    /// The icon shown when `--icon` asks for none (the HUD's checkmark).
    public var defaultIcon: Icon?
    /// Seconds a `--run` command may take before a toast shows at all.
    public var runGrace: Double
    /// Seconds a `--run` result (success or error) stays.
    public var runResultHold: Double
    /// Frames a second while a spinner turns (`--spinner`): enough to look smooth at one turn a
    /// second, half the work of a 60 Hz monitor.
    public var spinnerFrameRate: Double
    /// Seconds for one turn of the spinner.
    public var spinnerPeriod: Double
    /// Whether it goes through a pause (`--urgent`, `urgent = true`); nil: when it has a
    /// progress bar or a tag, as a volume key's toast (see `Configuration.goesThroughPause`).
    public var urgent: Bool?
    /// The spinner's stroke, as a fraction of its size, and the opacity of its ring.
    public var spinnerLineWidth: Double
    public var spinnerTrackOpacity: Double
    /// A line around the box: width in logical pixels (0: none) and colour (preset).
    public var borderWidth: Double
    public var borderColor: Color
    /// A drop shadow under the box, drawn only under a compositor (preset).
    public var shadow: Shadow?
    /// The progress bar: height, least width, space above it, logical pixels (`--progress`).
    public var progressHeight: Double
    public var progressMinimumWidth: Double
    public var progressGap: Double
    /// Bar colours: the value, the value with `!`, the part past 100, the empty track.
    public var progressColor: Color
    public var progressAlternateColor: Color
    public var progressOverflowColor: Color
    public var progressTrackColor: Color
    /// Buttons (`--button`), in a row under the text: their height, the space between them and
    /// above the row, the label's inset at each end, their corner radius (logical pixels), and
    /// the fill's opacity over the foreground colour (the label is drawn in the foreground colour).
    public var buttonHeight: Double
    public var buttonRadius: Double
    public var buttonGap: Double
    public var buttonInset: Double
    public var buttonFillOpacity: Double
    /// The reply entry (`--reply`), in the button row's place: the least width of a box with a
    /// reply button (room to type a line), its frame's and its caret's widths (logical pixels),
    /// and the placeholder's opacity relative to the text.
    public var replyMinimumWidth: Double
    public var replyFrameWidth: Double
    public var replyCaretWidth: Double
    public var replyPlaceholderOpacity: Double

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
        transitionEasing: .easeOut,
        titleGap: 2,
        titleMaximumLines: 2,
        minimumTextWidth: 24,
        stackGap: 8,
        stackSlideDuration: 0.25,
        animation: .fade,
        defaultDuration: .automatic,
        hoverMinimumHold: 1,
        fullscreen: .automatic,
        idleThreshold: 120,
        layout: .row,
        minimumWidth: 0,
        iconSize: 20,
        iconGap: 8,
        iconStyle: .badge,
        defaultIcon: nil,
        runGrace: 0.5,
        runResultHold: 2,
        spinnerFrameRate: 30,
        spinnerPeriod: 1,
        urgent: nil,
        spinnerLineWidth: 0.12,
        spinnerTrackOpacity: 0.25,
        borderWidth: 0,
        borderColor: Color(rgb255: 128, 128, 128),
        shadow: nil,
        progressHeight: 4,
        progressMinimumWidth: 160,
        progressGap: 8,
        progressColor: Color(red: 1, green: 1, blue: 1),
        progressAlternateColor: Color(rgb255: 158, 158, 158),
        progressOverflowColor: Color(rgb255: 255, 112, 67),
        progressTrackColor: Color(red: 1, green: 1, blue: 1, alpha: 0.25),
        buttonHeight: 26,
        buttonRadius: 6,
        buttonGap: 8,
        buttonInset: 12,
        buttonFillOpacity: 0.18,
        replyMinimumWidth: 320,
        replyFrameWidth: 1,
        replyCaretWidth: 1.5,
        replyPlaceholderOpacity: 0.55)

    /// The monitor `--render-png` lays out for, having no monitor (device pixels).
    public static let headlessMonitor = Size(width: 1920, height: 1080)

    /// The motion this style asks for.
    public var motion: Motion {
        switch animation {
        case .none: .none
        case .fade: .fade(in: fadeIn, out: fadeOut, curve: easing)
        case .bounce:
            // The alert design: 2/3 of the time to overshoot to 1.1 at 0.66 alpha, 1/3 to settle.
            Motion(
                initial: Appearance(opacity: 0, scale: 0.8),
                entrance: [
                    Keyframe(duration: fadeIn * 0.66, to: Appearance(opacity: 0.66, scale: 1.1), curve: .easeOut),
                    Keyframe(duration: fadeIn * 0.33, to: .shown, curve: .linear),
                ],
                exit: [Keyframe(duration: fadeOut, to: Appearance(opacity: 0, scale: 1.2), curve: .easeIn)])
        case .spring:
            // The HUD design: from 1.3 times its size, settling along the spring in `easing`.
            Motion(
                initial: Appearance(opacity: 0, scale: 1.3),
                entrance: [Keyframe(duration: fadeIn, to: .shown, curve: easing)],
                exit: [Keyframe(duration: fadeOut, to: .hidden, curve: .easeIn)])
        }
    }

    public enum Animation: String, CaseIterable, Sendable {
        case fade, bounce, spring, none
    }

    public enum Layout: String, Sendable {
        /// Icon left of the text, everything centred vertically.
        case row
        /// The HUD design: icon centred and shifted up by an eighth of the box, text shifted
        /// down by a quarter.
        case hud
    }

    public enum IconStyle: String, Sendable {
        case badge, glyph
    }

    /// Colours of the built-in icons' discs (`--icon success|error|info|warning`).
    public static let iconColors: (success: Color, error: Color, info: Color, warning: Color) = (
        Color(rgb255: 67, 160, 71), Color(rgb255: 229, 57, 53), Color(rgb255: 30, 136, 229), Color(rgb255: 251, 140, 0)
    )
}

/// A drop shadow: blur radius and offset in logical pixels, and how dark.
public struct Shadow: Equatable, Sendable {
    public var radius: Double
    public var offset: Offset
    public var opacity: Double
    public var color: Color

    public init(radius: Double, offset: Offset, opacity: Double, color: Color = Color(red: 0, green: 0, blue: 0)) {
        self.radius = radius
        self.offset = offset
        self.opacity = opacity
        self.color = color
    }
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
