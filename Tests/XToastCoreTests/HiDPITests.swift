import Testing

@testable import XToastCore

@Suite("HiDPI scale from X resources")
struct HiDPITests {
    @Test(
        "Xft.dpi / 96",
        arguments: [
            ("Xft.dpi:\t192\n", 2.0),
            ("Xft.dpi:\t96\n", 1.0),
            ("Xft.dpi:\t144", 1.5),
            ("Xft.dpi: 120", 1.25),
            ("Xft.dpi:192", 2.0),
            ("  Xft.dpi \t:\t 192 \t\n", 2.0),
            ("Xft.antialias:\t1\nXft.hinting:\t1\nXft.dpi:\t192\nXcursor.size:\t24\n", 2.0),
            ("Xft.dpi:\t192\r\n", 2.0),
            ("*dpi:\t144\n", 1.5),
        ])
    func scale(resources: String, expected: Double) {
        #expect(HiDPI.scale(resources: resources) == expected)
    }

    @Test(
        "Absent or unreadable means 1",
        arguments: [
            nil, "", "\n\n", "Xcursor.size:\t24\n", "Xft.dpis:\t192", "xft.dpi:\t192", "Xft.dpi", "Xft.dpi:",
            "Xft.dpi:\tlots", "Xft.dpi:\t-96", "Xft.dpi:\t0", "Xft.dpi:\tnan", "Xft.dpi:\tinf", "garbage\u{0}\u{FFFD}",
        ] as [String?])
    func fallback(resources: String?) {
        #expect(HiDPI.scale(resources: resources) == 1)
    }

    @Test(
        "Absurd values are clamped to 0.5...4",
        arguments: [("Xft.dpi:\t24", 0.5), ("Xft.dpi:\t1", 0.5), ("Xft.dpi:\t384", 4.0), ("Xft.dpi:\t10000", 4.0)])
    func clamped(resources: String, expected: Double) {
        #expect(HiDPI.scale(resources: resources) == expected)
    }
}
