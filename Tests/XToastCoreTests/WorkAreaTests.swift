import Testing

@testable import XToastCore

/// Two 1920x1080 monitors side by side, as on the test display.
private let screen = Size(width: 3840, height: 1080)
private let left = Rect(x: 0, y: 0, width: 1920, height: 1080)
private let right = Rect(x: 1920, y: 0, width: 1920, height: 1080)

/// `_NET_WM_STRUT_PARTIAL`'s twelve values, named.
private func partial(
    left: UInt32 = 0, right: UInt32 = 0, top: UInt32 = 0, bottom: UInt32 = 0, leftY: (UInt32, UInt32) = (0, 0),
    rightY: (UInt32, UInt32) = (0, 0), topX: (UInt32, UInt32) = (0, 0), bottomX: (UInt32, UInt32) = (0, 0)
) -> [UInt32] {
    [left, right, top, bottom, leftY.0, leftY.1, rightY.0, rightY.1, topX.0, topX.1, bottomX.0, bottomX.1]
}

@Suite("Work area: monitors less their docks")
struct WorkAreaTests {
    @Test("A bottom bar on the left monitor lifts toasts there and nowhere else")
    func barOnOneMonitor() throws {
        // i3bar on the left output: 23 px along x 0...1919.
        let bar = try #require(Strut(partial: partial(bottom: 23, bottomX: (0, 1919)), screen: screen))
        #expect(WorkArea.usable(left, screen: screen, struts: [bar], workArea: nil) == Rect(x: 0, y: 0, width: 1920, height: 1057))
        #expect(WorkArea.usable(right, screen: screen, struts: [bar], workArea: nil) == right)
    }

    @Test("A bar whose end is written one past its last pixel (i3bar's x + width) stays on its own monitor")
    func oneTooFar() throws {
        let bar = try #require(Strut(partial: partial(bottom: 23, bottomX: (0, 1920)), screen: screen))
        #expect(WorkArea.usable(left, screen: screen, struts: [bar], workArea: nil).maxY == 1057)
        #expect(WorkArea.usable(right, screen: screen, struts: [bar], workArea: nil) == right)
    }

    @Test("Partial struts on every edge, each taking its own side")
    func everyEdge() throws {
        let struts = [
            try #require(Strut(partial: partial(top: 30, topX: (1920, 3839)), screen: screen)),
            try #require(Strut(partial: partial(right: 48, rightY: (100, 900)), screen: screen)),
            try #require(Strut(partial: partial(left: 40, leftY: (0, 1079)), screen: screen)),
        ]
        #expect(WorkArea.usable(right, screen: screen, struts: struts, workArea: nil) == Rect(x: 1920, y: 30, width: 1872, height: 1050))
        #expect(WorkArea.usable(left, screen: screen, struts: struts, workArea: nil) == Rect(x: 40, y: 0, width: 1880, height: 1080))
    }

    @Test("The older _NET_WM_STRUT reserves the whole edge, on every monitor it touches")
    func fullStrut() throws {
        let panel = try #require(Strut(full: [0, 0, 0, 32], screen: screen))
        #expect(WorkArea.usable(left, screen: screen, struts: [panel], workArea: nil).maxY == 1048)
        #expect(WorkArea.usable(right, screen: screen, struts: [panel], workArea: nil).maxY == 1048)
    }

    @Test(
        "Garbage from another client is dropped, edge by edge",
        arguments: [
            [UInt32](),  // empty
            [0, 0, 0, 23],  // four values where twelve belong
            partial(bottom: 23, bottomX: (0, 1919)) + [7],  // thirteen
            partial(bottom: 600, bottomX: (0, 1919)),  // more than half the screen
            partial(bottom: UInt32.max, bottomX: (0, 1919)),  // -1 written as a CARDINAL
            partial(bottom: 23, bottomX: (1919, 0)),  // backwards
            partial(bottom: 23, bottomX: (5000, 6000)),  // off the screen
            partial(),  // reserves nothing
        ])
    func garbage(values: [UInt32]) {
        let strut = Strut(partial: values, screen: screen)
        #expect(strut == nil)
        #expect(WorkArea.usable(left, screen: screen, struts: strut.map { [$0] } ?? [], workArea: nil) == left)
    }

    @Test("One bad edge does not spoil the good one beside it")
    func goodEdgeKept() throws {
        let strut = try #require(Strut(partial: partial(top: 9999, bottom: 23, topX: (0, 1919), bottomX: (0, 1919)), screen: screen))
        #expect(WorkArea.usable(left, screen: screen, struts: [strut], workArea: nil) == Rect(x: 0, y: 0, width: 1920, height: 1057))
    }

    @Test("A range of 0…0 is the whole edge (awesome's wibar), as other clients read it")
    func wholeEdge() throws {
        let wibar = try #require(Strut(partial: partial(top: 22), screen: screen))
        #expect(WorkArea.usable(left, screen: screen, struts: [wibar], workArea: nil).y == 22)
        #expect(WorkArea.usable(right, screen: screen, struts: [wibar], workArea: nil).y == 22)
    }

    @Test("A range running past the screen's edge is cut at it")
    func rangeCut() throws {
        let strut = try #require(Strut(partial: partial(bottom: 23, bottomX: (1000, UInt32.max)), screen: screen))
        #expect(strut.reserved.first?.rect == Rect(x: 1000, y: 1057, width: 2840, height: 23))
    }

    @Test("Struts that would leave less than half the monitor are not a panel's: the monitor is used whole")
    func tooMuch() throws {
        let struts = [
            try #require(Strut(partial: partial(top: 500, topX: (0, 1919)), screen: screen)),
            try #require(Strut(partial: partial(bottom: 500, bottomX: (0, 1919)), screen: screen)),
        ]
        #expect(WorkArea.usable(left, screen: screen, struts: struts, workArea: nil) == left)
    }

    @Test("_NET_WORKAREA counts only when no dock declares a strut, and only inside the screen")
    func workAreaFallback() throws {
        let area = Rect(x: 0, y: 25, width: 3840, height: 1055)
        #expect(WorkArea.usable(right, screen: screen, struts: [], workArea: area) == Rect(x: 1920, y: 25, width: 1920, height: 1055))
        let bar = try #require(Strut(partial: partial(bottom: 23, bottomX: (0, 1919)), screen: screen))
        #expect(WorkArea.usable(right, screen: screen, struts: [bar], workArea: area) == right)
        for bad in [
            Rect(x: -10, y: 0, width: 3840, height: 1080), Rect(x: 0, y: 0, width: 0, height: 1080),
            Rect(x: 0, y: 0, width: 9000, height: 1080),
        ] {
            #expect(WorkArea.usable(right, screen: screen, struts: [], workArea: bad) == right)
        }
    }

    @Test("Placement counts from the work area: 15 px above the bar, --offset from there, kept inside it")
    func placementInWorkArea() {
        let area = Rect(x: 0, y: 0, width: 1920, height: 1057)
        let box = Size(width: 200, height: 38)
        let none = Point(x: 0, y: 0)
        #expect(Placement.origin(for: box, on: area, position: .bottom, margin: 15, offset: none).y == 1057 - 15 - 38)
        #expect(Placement.origin(for: box, on: area, position: .bottom, margin: 15, offset: Point(x: 0, y: -40)).y == 1057 - 15 - 38 - 40)
        #expect(Placement.origin(for: box, on: area, position: .bottom, margin: 15, offset: Point(x: 0, y: 500)).y == 1057 - 38)
    }
}
