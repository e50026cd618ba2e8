import Testing

@testable import XToastCore

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// Whether `appearance` is `opacity` and `scale`, to within rounding.
private func looks(_ appearance: Appearance, _ opacity: Double, _ scale: Double) -> Bool {
    close(appearance.opacity, opacity) && close(appearance.scale, scale)
}

@Suite("Presets")
struct PresetTests {
    // MARK: alert (an iOS FHNotification)

    @Test("alert: bold 15 px white text wrapped at 160 px, centred, holding 0.9 s")
    func alertText() {
        let alert = Style.alert
        #expect(alert.font == "Sans Bold 15")
        #expect(alert.foreground == Color(red: 1, green: 1, blue: 1))
        // The text wraps at 160 px: the box is that plus the padding on both sides.
        #expect(alert.maximumWidth == 160 + 2 * alert.padding)
        #expect(alert.maximumWidth == 180)
        #expect(alert.position == .center)
        #expect(alert.defaultDuration == .seconds(0.9))
    }

    @Test("alert: rgb(60,60,60) at 0.8, a 1 px rgb(128,128,128) border, radius 8, a shadow of radius 8 at (0,4), opacity 1")
    func alertBox() {
        let alert = Style.alert
        #expect(alert.background == Color(rgb255: 60, 60, 60, alpha: 0.8))
        #expect(alert.borderWidth == 1)
        #expect(alert.borderColor == Color(rgb255: 128, 128, 128))
        #expect(alert.borderColor.alpha == 1)
        #expect(alert.cornerRadius == 8)
        #expect(alert.shadow == Shadow(radius: 8, offset: Offset(x: 0, y: 4), opacity: 1, color: Color(red: 0, green: 0, blue: 0)))
        #expect(alert.layout == .row)
        #expect(alert.defaultIcon == nil)
    }

    @Test("alert: in from 0.8 to 1.1 at 0.66 alpha (0.35×0.66 s, ease-out), to 1.0 (0.35×0.33 s, linear); out to 1.2 (0.35 s, ease-in)")
    func alertMotion() {
        let motion = Style.alert.motion
        #expect(Style.alert.animation == .bounce)
        #expect(motion.initial == Appearance(opacity: 0, scale: 0.8))
        #expect(
            motion.entrance == [
                Keyframe(duration: 0.35 * 0.66, to: Appearance(opacity: 0.66, scale: 1.1), curve: .easeOut),
                Keyframe(duration: 0.35 * 0.33, to: Appearance(opacity: 1, scale: 1), curve: .linear),
            ])
        #expect(motion.exit == [Keyframe(duration: 0.35, to: Appearance(opacity: 0, scale: 1.2), curve: .easeIn)])
        #expect(motion.maximumScale == 1.2)
    }

    @Test("alert: the timeline passes through the design's numbers at each boundary")
    func alertTimeline() {
        let alert = Style.alert
        let timeline = Timeline(motion: alert.motion, hold: alert.defaultDuration.hold(for: "Saved"))
        let overshoot = 0.35 * 0.66
        let settled = overshoot + 0.35 * 0.33
        #expect(close(timeline.entranceDuration, settled))
        #expect(close(timeline.exitStart!, settled + 0.9))
        #expect(close(timeline.end!, settled + 0.9 + 0.35))

        #expect(looks(timeline.appearance(at: 0), 0, 0.8))
        #expect(looks(timeline.appearance(at: overshoot), 0.66, 1.1))
        #expect(looks(timeline.appearance(at: settled), 1, 1))
        #expect(looks(timeline.appearance(at: settled + 0.9), 1, 1))
        #expect(looks(timeline.appearance(at: timeline.end!), 0, 1.2))
        #expect(timeline.phase(at: timeline.end!) == .finished)

        // In between, each step follows its own curve.
        let easeOut = TimingCurve.easeOut.value(at: 0.5)
        #expect(looks(timeline.appearance(at: overshoot / 2), 0.66 * easeOut, 0.8 + 0.3 * easeOut))
        #expect(looks(timeline.appearance(at: overshoot + 0.35 * 0.33 / 2), 0.83, 1.05))
        let easeIn = TimingCurve.easeIn.value(at: 0.5)
        #expect(looks(timeline.appearance(at: settled + 0.9 + 0.35 / 2), 1 - easeIn, 1 + 0.2 * easeIn))
    }

    @Test("alert: the scale peaks at 1.1 on the way in, never below 0.8 or above 1.2")
    func alertScaleRange() {
        let timeline = Timeline(motion: Style.alert.motion, hold: 0.9)
        let end = timeline.end!
        let scales = (0...2000).map { timeline.appearance(at: end * Double($0) / 2000).scale }
        #expect(scales.allSatisfy { (0.8 - 1e-9...1.2 + 1e-9).contains($0) })
        let entrance = (0...1000).map { timeline.appearance(at: timeline.entranceDuration * Double($0) / 1000).scale }
        #expect(close(entrance.max()!, 1.1, 1e-6))
    }

    // MARK: hud (an iOS HudView)

    @Test("hud: a 96×96 box, radius 10, grey 0.3 at 0.8, Sans 16 white, centred")
    func hudBox() {
        let hud = Style.hud
        #expect(hud.minimumWidth == 96)
        #expect(hud.minimumHeight == 96)
        #expect(hud.cornerRadius == 10)
        #expect(hud.background == Color(red: 0.3, green: 0.3, blue: 0.3, alpha: 0.8))
        #expect(hud.font == "Sans 16")
        #expect(hud.foreground == Color(red: 1, green: 1, blue: 1))
        #expect(hud.position == .center)
        #expect(hud.shadow == nil)
        #expect(hud.borderWidth == 0)
    }

    @Test("hud: its own layout, with a checkmark drawn as a plain glyph when no icon is asked for")
    func hudIcon() {
        let hud = Style.hud
        #expect(hud.layout == .hud)
        #expect(hud.defaultIcon == .success)
        #expect(hud.iconStyle == .glyph)
    }

    @Test("hud: in from alpha 0 and scale 1.3 over 0.3 s along spring(0.7, 0.5)")
    func hudMotion() {
        let hud = Style.hud
        let motion = hud.motion
        #expect(hud.animation == .spring)
        #expect(hud.easing == .spring(damping: 0.7, velocity: 0.5))
        #expect(motion.initial == Appearance(opacity: 0, scale: 1.3))
        #expect(motion.entrance == [Keyframe(duration: 0.3, to: .shown, curve: .spring(damping: 0.7, velocity: 0.5))])
        #expect(motion.maximumScale == 1.3)
    }

    @Test("hud: the timeline starts at 1.3, follows the spring, and is at rest when the 0.3 s are up")
    func hudTimeline() {
        let timeline = Timeline(motion: Style.hud.motion, hold: 2)
        let spring = Spring(damping: 0.7, velocity: 0.5)
        #expect(close(timeline.entranceDuration, 0.3))
        #expect(looks(timeline.appearance(at: 0), 0, 1.3))
        for fraction in [0.1, 0.25, 0.5, 0.75, 0.9] {
            let value = spring.value(at: fraction)
            #expect(looks(timeline.appearance(at: 0.3 * fraction), value, 1.3 - 0.3 * value), "at \(fraction)")
        }
        #expect(looks(timeline.appearance(at: 0.3), 1, 1))
        // The spring overshoots: the box dips just below its size before it comes to rest.
        let scales = (0...1000).map { timeline.appearance(at: 0.3 * Double($0) / 1000).scale }
        #expect(scales.min()! < 1)
        #expect(scales.max()! <= 1.3)
    }

    // MARK: All of them

    @Test("The presets by name: toast, alert, hud, and notify-send's urgencies")
    func presetNames() {
        #expect(Style.presets.count == 6)
        #expect(Style.presets["toast"] == .toast)
        #expect(Style.presets["alert"] == .alert)
        #expect(Style.presets["hud"] == .hud)
        // normal differs from the toast only in holding 10 s when nothing says how long (an
        // application's notification); low also in being dropped over a fullscreen window.
        var normal = Style.toast
        normal.defaultDuration = .seconds(10)
        #expect(Style.presets["normal"] == normal)
        var low = normal
        low.fullscreen = .policy(.drop)
        #expect(Style.presets["low"] == low)
        // critical differs from the toast in its colour, in staying until clicked and in showing
        // over a fullscreen window.
        var critical = Style.toast
        critical.background = Style.critical.background
        critical.defaultDuration = .sticky
        critical.fullscreen = .policy(.show)
        critical.urgent = true
        #expect(Style.presets["critical"] == critical)
        #expect(Set(NotifySend.urgencies).isSubset(of: Style.presets.keys))
    }

    @Test("Each preset differs from the toast design only where its design says so", arguments: ["alert", "hud"])
    func presetsKeepTheRest(name: String) throws {
        let style = try #require(Style.presets[name])
        #expect(style.padding == Style.toast.padding)
        #expect(style.maximumLines == Style.toast.maximumLines)
        #expect(style.edgeMargin == Style.toast.edgeMargin)
        #expect(style.offset == Style.toast.offset)
        #expect(style != Style.toast)
    }

    @Test("A built-in preset sets the style, the default hold and the default icon; an unknown name changes nothing")
    func builtInPresets() {
        // (Applied outside #expect, which cannot call a mutating method.)
        var alert = ConfigurationBuilder()
        let alertApplied = alert.apply(builtInPreset: "alert")
        #expect(alertApplied)
        #expect(alert.configuration.style == .alert)
        #expect(alert.configuration.duration == .seconds(0.9))
        #expect(alert.configuration.icon == nil)

        var hud = ConfigurationBuilder()
        let hudApplied = hud.apply(builtInPreset: "hud")
        #expect(hudApplied)
        #expect(hud.configuration.style == .hud)
        #expect(hud.configuration.duration == .automatic)
        #expect(hud.configuration.icon == .success)

        var toast = ConfigurationBuilder()
        let toastApplied = toast.apply(builtInPreset: "toast")
        #expect(toastApplied)
        #expect(toast.configuration.style == .toast)

        var unknown = ConfigurationBuilder()
        let unknownApplied = [unknown.apply(builtInPreset: "volume"), unknown.apply(builtInPreset: "Alert")]
        #expect(unknownApplied == [false, false])
        #expect(unknown.configuration.style == .toast)
        #expect(unknown.configuration.icon == nil)
        #expect(unknown.origins.isEmpty)
    }

    @Test("Options given after a built-in preset change only what they name")
    func optionsOverPreset() throws {
        var builder = ConfigurationBuilder()
        builder.apply(builtInPreset: "alert")
        try builder.apply(commandLine: CommandLineParser.parse(["--radius", "3", "--duration", "2", "Saved"]).options)
        var expected = Style.alert
        expected.cornerRadius = 3
        #expect(builder.configuration.style == expected)
        #expect(builder.configuration.duration == .seconds(2))
    }
}
