import Testing

@testable import XToastCore

/// A primary 1080p monitor on the left and a taller 1440p one on the right, tops aligned.
private let left = Monitor(name: "DP-1", rect: Rect(x: 0, y: 0, width: 1920, height: 1080), isPrimary: true)
private let right = Monitor(name: "HDMI-1", rect: Rect(x: 1920, y: 0, width: 2560, height: 1440))
private let pair = [left, right]

@Suite("Monitor choice")
struct MonitorChoiceTests {
    @Test(
        "--monitor parses keywords, numbers and names",
        arguments: [
            ("pointer", MonitorChoice.pointer), ("focus", .focus), ("primary", .primary), ("all", .all),
            ("0", .index(0)), ("1", .index(1)), ("12", .index(12)),
            ("HDMI-1", .named("HDMI-1")), ("DP-1-2", .named("DP-1-2")), ("-1", .named("-1")), ("Pointer", .named("Pointer")),
        ])
    func parses(text: String, expected: MonitorChoice) {
        #expect(MonitorChoice(parsing: text) == expected)
        #expect(expected.description == text)
    }

    @Test("An empty name or a number too large for an index is rejected", arguments: ["", "99999999999999999999999"])
    func rejects(text: String) {
        #expect(MonitorChoice(parsing: text) == nil)
    }

    @Test(
        "pointer: the monitor under the pointer, else the nearest one",
        arguments: [
            (Point(x: 100, y: 100), "DP-1"),
            (Point(x: 1919, y: 1079), "DP-1"),
            (Point(x: 1920, y: 0), "HDMI-1"),
            (Point(x: 2000, y: 1200), "HDMI-1"),  // below DP-1's bottom, inside HDMI-1
            // In the gap under DP-1: DP-1 is 221 px away, HDMI-1 920 px.
            (Point(x: 1000, y: 1300), "DP-1"),
            // Near the corner of the gap: HDMI-1 is 20 px away, DP-1 221 px.
            (Point(x: 1900, y: 1300), "HDMI-1"),
            (Point(x: -50, y: -50), "DP-1"),
            (Point(x: 9000, y: 500), "HDMI-1"),
        ])
    func pointer(at point: Point, expected: String) throws {
        #expect(try MonitorChoice.pointer.select(from: pair, pointer: point, focus: nil).map(\.name) == [expected])
    }

    @Test("pointer: unknown pointer means the first monitor")
    func pointerUnknown() throws {
        #expect(try MonitorChoice.pointer.select(from: [right, left], pointer: nil, focus: nil) == [right])
    }

    @Test("pointer: where a whole-screen monitor overlaps real ones, the smallest containing one wins")
    func overlappingMonitors() throws {
        let screen = Monitor(name: "screen", rect: Rect(x: 0, y: 0, width: 4480, height: 1440))
        for monitors in [[screen, left, right], [left, right, screen]] {
            #expect(try MonitorChoice.pointer.select(from: monitors, pointer: Point(x: 100, y: 100), focus: nil) == [left])
            #expect(try MonitorChoice.pointer.select(from: monitors, pointer: Point(x: 3000, y: 100), focus: nil) == [right])
            // Only the whole-screen monitor covers the corner under DP-1.
            #expect(try MonitorChoice.pointer.select(from: monitors, pointer: Point(x: 100, y: 1200), focus: nil) == [screen])
        }
    }

    @Test(
        "focus: the monitor showing most of the focused window",
        arguments: [
            (Rect(x: 1800, y: 100, width: 400, height: 300), "HDMI-1"),  // 280 px wide on HDMI-1, 120 on DP-1
            (Rect(x: 1700, y: 100, width: 400, height: 300), "DP-1"),  // 220 on DP-1, 180 on HDMI-1
            (Rect(x: 1800, y: 900, width: 300, height: 400), "HDMI-1"),  // 120×180 on DP-1, 180×400 on HDMI-1
        ])
    func focus(window: Rect, expected: String) throws {
        // The pointer is on the other monitor: focus must not fall back to it.
        let pointer = Point(x: expected == "DP-1" ? 3000 : 100, y: 100)
        #expect(try MonitorChoice.focus.select(from: pair, pointer: pointer, focus: window).map(\.name) == [expected])
    }

    @Test("focus: unknown or off-screen focus falls back to the pointer")
    func focusFallback() throws {
        let onRight = Point(x: 3000, y: 100)
        #expect(try MonitorChoice.focus.select(from: pair, pointer: onRight, focus: nil) == [right])
        #expect(
            try MonitorChoice.focus.select(from: pair, pointer: onRight, focus: Rect(x: -5000, y: 0, width: 100, height: 100)) == [right])
        #expect(try MonitorChoice.focus.select(from: pair, pointer: nil, focus: nil) == [left])
    }

    @Test("primary: the primary monitor, else the first")
    func primary() throws {
        #expect(try MonitorChoice.primary.select(from: [right, left], pointer: nil, focus: nil) == [left])
        var notPrimary = left
        notPrimary.isPrimary = false
        #expect(try MonitorChoice.primary.select(from: [right, notPrimary], pointer: nil, focus: nil) == [right])
    }

    @Test("all: every monitor once; mirrored outputs (same rectangle) count once")
    func all() throws {
        let mirror = Monitor(name: "eDP-1", rect: left.rect)
        #expect(try MonitorChoice.all.select(from: pair, pointer: nil, focus: nil) == pair)
        #expect(try MonitorChoice.all.select(from: [left, mirror, right], pointer: nil, focus: nil) == [left, right])
        #expect(try MonitorChoice.all.select(from: [left, right, mirror, right], pointer: nil, focus: nil) == [left, right])
    }

    @Test("A name or an index picks that monitor")
    func namedAndIndexed() throws {
        #expect(try MonitorChoice.named("HDMI-1").select(from: pair, pointer: Point(x: 0, y: 0), focus: nil) == [right])
        #expect(try MonitorChoice.index(0).select(from: pair, pointer: Point(x: 3000, y: 0), focus: nil) == [left])
        #expect(try MonitorChoice.index(1).select(from: pair, pointer: nil, focus: nil) == [right])
    }

    @Test(
        "An unknown name or index is an error listing the monitors there are",
        arguments: [MonitorChoice.named("VGA-1"), .named("hdmi-1"), .index(2), .index(99)])
    func unknown(choice: MonitorChoice) {
        #expect(throws: UnknownMonitorError(choice: choice, available: ["DP-1", "HDMI-1"])) {
            try choice.select(from: pair, pointer: nil, focus: nil)
        }
    }

    @Test("Unplugged: asked for on the command line it is an error; from a file, the default monitor, with a warning")
    func unplugged() {
        let missing = UnknownMonitorError(choice: .named("HDMI-2"), available: ["DP-1", "HDMI-1"])
        #expect(missing.description == #"no monitor "HDMI-2" (monitors: 0 DP-1, 1 HDMI-1)"#)
        #expect(missing.fallback(from: nil) == nil)
        let fallback = missing.fallback(from: "~/.config/xtoast/config:3")
        #expect(fallback?.monitor == Configuration().monitor)
        #expect(
            fallback?.warning
                == #"~/.config/xtoast/config:3: monitor: no monitor "HDMI-2" (monitors: 0 DP-1, 1 HDMI-1); showing it on the default monitor, pointer"#
        )
    }

    @Test(
        "No monitors: nothing to choose, and no crash",
        arguments: [MonitorChoice.pointer, .focus, .primary, .all, .named("DP-1"), .index(0)])
    func noMonitors(choice: MonitorChoice) throws {
        #expect(try choice.select(from: [], pointer: Point(x: 0, y: 0), focus: Rect(x: 0, y: 0, width: 10, height: 10)).isEmpty)
    }

    @Test(
        "Every choice but all yields exactly one monitor, from the list",
        arguments: [MonitorChoice.pointer, .focus, .primary, .named("DP-1"), .index(1)])
    func exactlyOne(choice: MonitorChoice) throws {
        for pointer in [nil, Point(x: -10_000, y: 0), Point(x: 2500, y: 1400), Point(x: 1920, y: 1080)] {
            let chosen = try choice.select(from: pair, pointer: pointer, focus: Rect(x: 10, y: 10, width: 5, height: 5))
            #expect(chosen.count == 1)
            #expect(chosen.allSatisfy(pair.contains))
        }
    }
}
