import Testing

@testable import XToastCore

@Suite("Toast metrics")
struct ToastMetricsTests {
    let metrics = ToastMetrics(style: .toast, scale: 1, monitor: Size(width: 1920, height: 1080))

    @Test("The toast design's numbers at scale 1")
    func designNumbers() {
        #expect(metrics.padding == 10)
        #expect(metrics.minimumHeight == 38)
        #expect(metrics.margin == 15)
        #expect(metrics.cornerRadius == 5)
        #expect(metrics.offset == Point(x: 0, y: 0))
    }

    @Test("By default the box is at most a third of the monitor wide", arguments: [1920, 1280, 1366, 1024, 2560, 3072, 3840, 5120, 7680])
    func defaultMaximumWidth(monitorWidth: Int) {
        let m = ToastMetrics(style: .toast, scale: 1, monitor: Size(width: monitorWidth, height: 1080))
        #expect(m.maximumTextWidth + 2 * m.padding == monitorWidth / 3)
    }

    @Test(
        "The box is the text plus the padding on every side, and at least 38 high",
        arguments: [
            (Size(width: 100, height: 17), Size(width: 120, height: 38)),
            (Size(width: 100, height: 18), Size(width: 120, height: 38)),
            (Size(width: 100, height: 19), Size(width: 120, height: 39)),
            (Size(width: 620, height: 34), Size(width: 640, height: 54)),
            (Size(width: 0, height: 0), Size(width: 20, height: 38)),
        ])
    func boxSize(text: Size, expected: Size) {
        #expect(metrics.boxSize(forText: text) == expected)
    }

    @Test("Scale 2 doubles every length")
    func scaleTwo() {
        var style = Style.toast
        style.offset = Offset(x: 3, y: -4)
        let one = ToastMetrics(style: style, scale: 1, monitor: Size(width: 1920, height: 1080))
        let two = ToastMetrics(style: style, scale: 2, monitor: Size(width: 3840, height: 2160))
        #expect(two.padding == 2 * one.padding)
        #expect(two.minimumHeight == 2 * one.minimumHeight)
        #expect(two.margin == 2 * one.margin)
        #expect(two.cornerRadius == 2 * one.cornerRadius)
        #expect(two.offset == Point(x: 2 * one.offset.x, y: 2 * one.offset.y))
        #expect(two.maximumTextWidth == 2 * one.maximumTextWidth)
        let text = Size(width: 100, height: 17)
        let doubled = Size(width: 200, height: 34)
        #expect(
            two.boxSize(forText: doubled)
                == Size(width: 2 * one.boxSize(forText: text).width, height: 2 * one.boxSize(forText: text).height))
    }

    @Test("Fractional scales round lengths to whole pixels")
    func fractionalScale() {
        let m = ToastMetrics(style: .toast, scale: 1.25, monitor: Size(width: 2400, height: 1080))
        #expect(m.padding == 13)  // 12.5 rounds away from zero
        #expect(m.minimumHeight == 48)  // 47.5
        #expect(m.margin == 19)  // 18.75
        #expect(m.cornerRadius == 6.25)  // a radius may stay fractional: it is antialiased
    }

    @Test(
        "The text sits in the middle of the box, rounded down",
        arguments: [
            (Size(width: 100, height: 17), Size(width: 120, height: 38), Point(x: 10, y: 10)),
            (Size(width: 100, height: 18), Size(width: 120, height: 38), Point(x: 10, y: 10)),
            (Size(width: 100, height: 30), Size(width: 120, height: 50), Point(x: 10, y: 10)),
            (Size(width: 31, height: 17), Size(width: 60, height: 38), Point(x: 14, y: 10)),
        ])
    func textOrigin(text: Size, box: Size, expected: Point) {
        #expect(metrics.textOrigin(forText: text, inBox: box) == expected)
    }

    @Test("--max-width is in logical pixels and includes the padding")
    func explicitMaximumWidth() {
        var style = Style.toast
        style.maximumWidth = 300
        #expect(ToastMetrics(style: style, scale: 1, monitor: Size(width: 1920, height: 1080)).maximumTextWidth == 280)
        #expect(ToastMetrics(style: style, scale: 2, monitor: Size(width: 3840, height: 2160)).maximumTextWidth == 560)
    }

    @Test("However wide it may be, the box fits on the monitor with its margins", arguments: [500.0, 1900, 5000, 100_000])
    func fitsOnMonitor(maximumWidth: Double) {
        var style = Style.toast
        style.maximumWidth = maximumWidth
        let m = ToastMetrics(style: style, scale: 1, monitor: Size(width: 1920, height: 1080))
        #expect(m.maximumTextWidth + 2 * m.padding <= 1920 - 2 * m.margin)
    }

    @Test("Some text always fits, however narrow the monitor or large the padding")
    func roomForText() {
        #expect(ToastMetrics(style: .toast, scale: 1, monitor: Size(width: 60, height: 1080)).maximumTextWidth >= 24)
        var padded = Style.toast
        padded.padding = 500
        #expect(ToastMetrics(style: padded, scale: 1, monitor: Size(width: 1920, height: 1080)).maximumTextWidth >= 24)
    }

    @Test("Negative padding and radius count as zero")
    func negativeLengths() {
        var style = Style.toast
        style.padding = -4
        style.cornerRadius = -3
        let m = ToastMetrics(style: style, scale: 1, monitor: Size(width: 1920, height: 1080))
        #expect(m.padding == 0)
        #expect(m.cornerRadius == 0)
    }
}
