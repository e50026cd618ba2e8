import CCairo
import Testing
import XToastCore

@testable import XToastRender

/// The centre drawn on an image: the toasts' background in a rounded column, ink where the
/// rows say, the chosen row lighter, the switch's accent when paused; and what a click hits is
/// where it was drawn.
@Suite("The centre's painter")
struct CenterPainterTests {
    static let size = Size(width: 400, height: 600)

    static func entry(_ id: UInt32, app: String, buttons: [String] = []) -> CenterEntry {
        var request = NotificationRequest()
        (request.appName, request.summary, request.body) = (app, "Title \(id)", "Body of \(id)")
        request.actions = buttons.flatMap { [$0.lowercased(), $0] }
        return CenterEntry(
            kept: Dispatcher.Notification(id: id, toast: NotificationToast(id: id, request: request, icon: nil), time: 1000), readUpTo: 0)
    }

    static func drawn(_ center: Center, painter: CenterPainter, opaque: Bool = false) throws -> PixelReader {
        let surface = try CairoSurface(imageOf: size)
        try surface.draw { painter.draw(center, into: $0, now: 1060, opaque: opaque) }
        return PixelReader(surface)
    }

    static var painter: CenterPainter { CenterPainter(style: .toast, scale: 1, size: size, iconTheme: nil) }

    @Test func theColumnIsTheToastsBackgroundWithRoundedCorners() throws {
        let center = Center(entries: [], metrics: Self.painter.metrics, paused: false)
        let pixels = try Self.drawn(center, painter: Self.painter)
        #expect(pixels[0, 0].alpha == 0)
        #expect(pixels[399, 599].alpha == 0)
        // The toast's background: black at 0.8.
        #expect(pixels[200, 590] == ARGB(alpha: 204, red: 0, green: 0, blue: 0))
        // Opaque without a compositor.
        #expect(try Self.drawn(center, painter: Self.painter, opaque: true)[200, 590].alpha == 255)
    }

    /// "Held by obs" between the switch's label and the switch, only while an application holds
    /// notifications; the switch stays the pause's.
    @Test func whoHoldsNotificationsIsSaidBesideTheSwitch() throws {
        let line = Int(CenterLook.standard.headerHeight) / 2
        let between = { (pixels: PixelReader) in pixels.pixels(x: 200..<345, y: line..<(2 * line)) { $0.isInk } }
        let free = Center(entries: [], metrics: Self.painter.metrics, paused: false)
        #expect(between(try Self.drawn(free, painter: Self.painter)).isEmpty)
        let held = Center(
            entries: [], metrics: Self.painter.metrics, paused: false,
            inhibited: Inhibited(holders: [Inhibited.Holder(name: "obs", reason: nil)!]))
        #expect(!between(try Self.drawn(held, painter: Self.painter)).isEmpty)
    }

    @Test func rowsAreInkedWhereTheListSaysAndOnlyThere() throws {
        let entries = (1...3).map { Self.entry($0, app: "Mail") }
        let center = Center(entries: entries, metrics: Self.painter.metrics, paused: false)
        let pixels = try Self.drawn(center, painter: Self.painter)
        let listTop = Int(CenterLook.standard.headerHeight)
        let listEnd = listTop + center.height
        let ink = pixels.pixels(y: listTop..<listEnd) { $0.isSolidWhite }
        #expect(!ink.isEmpty)
        // Nothing under the last row.
        #expect(pixels.pixels(y: listEnd..<590) { $0.isInk }.isEmpty)
    }

    @Test func theChosenRowIsLighterThanTheOthers() throws {
        let entries = (1...3).map { Self.entry($0, app: "Mail") }
        let center = Center(entries: entries, metrics: Self.painter.metrics, paused: false)
        let pixels = try Self.drawn(center, painter: Self.painter)
        let listTop = Int(CenterLook.standard.headerHeight)
        // Row 1 is chosen; row 2 is not. A point in each at the right, away from text.
        let chosen = pixels[380, listTop + center.height(of: 0) + center.height(of: 1) - 6]
        let other = pixels[380, listTop + center.height(of: 0) + center.height(of: 1) + center.height(of: 2) - 6]
        #expect(chosen.red > other.red, "\(chosen) \(other)")
    }

    @Test func theSwitchIsFilledWhenPaused() throws {
        func white(_ paused: Bool) throws -> Int {
            let pixels = try Self.drawn(Center(entries: [], metrics: Self.painter.metrics, paused: paused), painter: Self.painter)
            let line = Int(CenterLook.standard.headerHeight) / 2
            return pixels.pixels(x: 340..<400, y: line..<(2 * line)) { $0.isSolidWhite }.count
        }
        let (on, off) = (try white(true), try white(false))
        // Off: the knob alone; on: the track around the knob.
        #expect(off > 100 && on > off + 150, "\(on) \(off)")
    }

    @Test func aClickHitsWhatWasDrawnThere() throws {
        let entries = [Self.entry(1, app: "Mail", buttons: ["Reply", "Archive"]), Self.entry(2, app: "Chat")]
        let center = Center(entries: entries, metrics: Self.painter.metrics, paused: false)
        let listTop = Int(CenterLook.standard.headerHeight)
        #expect(Self.painter.hit(at: Point(x: -1, y: 10), in: center) == .outside)
        #expect(Self.painter.hit(at: Point(x: 200, y: 700), in: center) == .outside)
        #expect(Self.painter.hit(at: Point(x: 370, y: listTop * 3 / 4), in: center) == .pauseSwitch)
        #expect(Self.painter.hit(at: Point(x: 350, y: listTop / 4 + 4), in: center) == .clearAll)
        // Chat is newer (the higher id of the same time): its group first, then Mail's.
        #expect(center.groups.map(\.app) == ["Chat", "Mail"])
        let mailTop = listTop + center.height(of: 0) + center.height(of: 1) + center.height(of: 2)
        #expect(Self.painter.hit(at: Point(x: 200, y: mailTop + 20), in: center) == .row(3))
        // Its buttons, each a half of the row under its text.
        let buttonsY = mailTop + Self.painter.metrics.entry + Self.painter.metrics.buttons / 2 - 4
        #expect(Self.painter.hit(at: Point(x: 120, y: buttonsY), in: center) == .button(row: 3, index: 0))
        #expect(Self.painter.hit(at: Point(x: 370, y: buttonsY), in: center) == .button(row: 3, index: 1))
        #expect(Self.painter.hit(at: Point(x: 200, y: 590), in: center) == .nothing)
    }
}
