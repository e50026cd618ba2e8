import Testing

@testable import XToastCore

/// Two 1920×1080 monitors side by side, as the X tests set them up on a 3840×1080 screen.
private let left = Rect(x: 0, y: 0, width: 1920, height: 1080)
private let right = Rect(x: 1920, y: 0, width: 1920, height: 1080)
private let monitors = [left, right]

private func window(
    _ id: UInt32, _ frame: Rect, fullscreen: Bool = false, hidden: Bool = false, maximized: Bool = false
) -> ClientWindow {
    ClientWindow(id: id, frame: frame, isFullscreen: fullscreen, isHidden: hidden, isMaximized: maximized)
}

/// A film on the left monitor; a terminal (decorated, so its client is a little smaller) on the right.
private let film = window(1, left, fullscreen: true)
private let terminal = window(2, Rect(x: 2000, y: 100, width: 800, height: 600))
private let dialog = window(3, Rect(x: 760, y: 390, width: 400, height: 300))
private let editor = window(4, Rect(x: 0, y: 24, width: 1920, height: 1056), maximized: true)

@Suite("Fullscreen, per monitor")
struct FullscreenTests {
    @Test(
        "Reference snapshots: which monitors the window on top covers",
        arguments: [
            ("nothing at all", DesktopSnapshot(), [false, false]),
            ("a film on the left, a terminal on the right", DesktopSnapshot(stacking: [terminal, film]), [true, false]),
            ("the terminal stacked above the film (another monitor)", DesktopSnapshot(stacking: [film, terminal]), [true, false]),
            ("the film minimised", DesktopSnapshot(stacking: [window(1, left, fullscreen: true, hidden: true)]), [false, false]),
            ("a dialog over the film: still the film's monitor", DesktopSnapshot(stacking: [film, dialog]), [true, false]),
            ("a maximised editor over the film", DesktopSnapshot(stacking: [film, editor]), [false, false]),
            ("the film over the maximised editor", DesktopSnapshot(stacking: [editor, film]), [true, false]),
            (
                "a big window over the film covers most of it",
                DesktopSnapshot(stacking: [film, window(5, Rect(x: 100, y: 100, width: 1600, height: 900))]), [false, false]
            ),
            (
                "a game the size of the monitor, not marked fullscreen",
                DesktopSnapshot(stacking: [terminal, window(6, right)]), [false, true]
            ),
            (
                "a maximised window the size of the monitor is not a game",
                DesktopSnapshot(stacking: [window(6, right, maximized: true)]), [false, false]
            ),
            (
                "a desktop window under everything (file manager icons) is not a game",
                DesktopSnapshot(stacking: [
                    ClientWindow(id: 10, frame: Rect(x: 0, y: 0, width: 3840, height: 1080), isDesktop: true), terminal,
                ]), [false, false]
            ),
            (
                "fullscreen across both monitors (_NET_WM_FULLSCREEN_MONITORS)",
                DesktopSnapshot(stacking: [window(7, Rect(x: 0, y: 0, width: 3840, height: 1080), fullscreen: true)]), [true, true]
            ),
            (
                "a window marked fullscreen that the window manager left small",
                DesktopSnapshot(stacking: [window(8, Rect(x: 10, y: 10, width: 300, height: 200), fullscreen: true)]), [false, false]
            ),
            (
                "a fullscreen window reaching a few pixels into the other monitor",
                DesktopSnapshot(stacking: [window(9, Rect(x: 0, y: 0, width: 1925, height: 1080), fullscreen: true)]), [true, false]
            ),
            (
                "the hidden film over a visible editor",
                DesktopSnapshot(stacking: [editor, window(1, left, fullscreen: true, hidden: true)]), [false, false]
            ),
            ("no stacking list: the active window decides", DesktopSnapshot(active: film), [true, false]),
            ("no stacking list, a plain active window", DesktopSnapshot(active: terminal), [false, false]),
            (
                "no stacking list, the active film minimised",
                DesktopSnapshot(active: window(1, left, fullscreen: true, hidden: true)), [false, false]
            ),
            (
                "an active window missing from the list is taken as on top",
                DesktopSnapshot(stacking: [editor], active: film), [true, false]
            ),
            (
                "the active window in the list keeps its place there",
                DesktopSnapshot(stacking: [film, editor], active: film), [false, false]
            ),
        ])
    func reference(what: String, snapshot: DesktopSnapshot, expected: [Bool]) {
        #expect(Fullscreen.covered(snapshot, monitors: monitors) == expected, "\(what)")
    }

    @Test("A monitor's deciding window is the topmost that fills or obscures it")
    func decidingWindow() {
        let snapshot = DesktopSnapshot(stacking: [editor, film, dialog, terminal])
        #expect(Fullscreen.deciding(snapshot, on: left)?.id == film.id)
        #expect(Fullscreen.deciding(snapshot, on: right) == nil)
    }

    @Test("Degenerate monitors and windows decide nothing and never trap")
    func degenerate() {
        let empty = Rect(x: 0, y: 0, width: 0, height: 0)
        let negative = window(1, Rect(x: 0, y: 0, width: -5, height: -5), fullscreen: true)
        let huge = window(2, Rect(x: -65536, y: -65536, width: 1 << 20, height: 1 << 20), fullscreen: true)
        #expect(Fullscreen.covered(DesktopSnapshot(stacking: [negative]), monitors: [empty, left]) == [false, false])
        #expect(Fullscreen.covered(DesktopSnapshot(stacking: [huge]), monitors: [empty, left, right]) == [false, true, true])
    }

    @Test(
        "--fullscreen reads show, delay, drop and auto",
        arguments: [
            ("show", FullscreenChoice.policy(.show)), ("delay", .policy(.delay)), ("drop", .policy(.drop)), ("auto", .automatic),
        ])
    func parses(text: String, expected: FullscreenChoice) throws {
        #expect(FullscreenChoice(parsing: text) == expected)
        #expect(expected.description == text)
        var configuration = Configuration()
        try #require(OptionTable.named("fullscreen")).apply(text, to: &configuration)
        #expect(configuration.style.fullscreen == expected)
    }

    @Test("--fullscreen rejects anything else", arguments: ["", "Show", "hide", "delay ", "1"])
    func rejects(text: String) throws {
        var configuration = Configuration()
        #expect(throws: OptionError.self) { try #require(OptionTable.named("fullscreen")).apply(text, to: &configuration) }
    }

    @Test("auto: an OSD (--progress, --tag, --stdin) shows; a plain message waits")
    func automatic() {
        var plain = Configuration()
        #expect(plain.fullscreenPolicy == .delay)
        var progress = plain
        progress.progress = Progress(parsing: "40")
        #expect(progress.fullscreenPolicy == .show)
        var tagged = plain
        tagged.tag = "volume"
        #expect(tagged.fullscreenPolicy == .show)
        var stream = plain
        stream.followStandardInput = true
        #expect(stream.fullscreenPolicy == .show)
        // A policy set explicitly wins over what the toast is.
        tagged.style.fullscreen = .policy(.drop)
        #expect(tagged.fullscreenPolicy == .drop)
        plain.style.fullscreen = .policy(.show)
        #expect(plain.fullscreenPolicy == .show)
    }

    @Test(
        "Per preset: toast and alert auto, hud and critical show, low drops, normal auto",
        arguments: [
            ("toast", FullscreenChoice.automatic, FullscreenPolicy.delay), ("alert", .automatic, .delay), ("hud", .policy(.show), .show),
            ("low", .policy(.drop), .drop), ("normal", .automatic, .delay), ("critical", .policy(.show), .show),
        ])
    func presets(name: String, choice: FullscreenChoice, policy: FullscreenPolicy) {
        var builder = ConfigurationBuilder()
        builder.apply(builtInPreset: name)
        #expect(builder.configuration.style.fullscreen == choice)
        #expect(builder.configuration.fullscreenPolicy == policy)
    }

    @Test("notify-send: a volume script's -h int:value:N shows; a plain normal message waits; -u critical shows")
    func notifySend() throws {
        func policy(_ arguments: [String]) throws -> FullscreenPolicy {
            let invocation = try NotifySend.invocation(arguments, newID: 1)
            var builder = ConfigurationBuilder()
            let preset = invocation.arguments[1]
            builder.apply(builtInPreset: preset)
            let options = try CommandLineParser.parse(Array(invocation.arguments.dropFirst(2)))
            try builder.apply(commandLine: options.options)
            return builder.configuration.fullscreenPolicy
        }
        #expect(try policy(["-h", "int:value:40", "Volume"]) == .show)
        #expect(try policy(["Build done"]) == .delay)
        #expect(try policy(["-u", "critical", "Battery at 5%"]) == .show)
        #expect(try policy(["-u", "low", "Copied"]) == .drop)
    }
}
