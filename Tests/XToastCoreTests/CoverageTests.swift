import Testing

@testable import XToastCore

/// Two 1920x1080 monitors side by side, as on the test display.
private let screen = Size(width: 3840, height: 1080)
private let left = Rect(x: 0, y: 0, width: 1920, height: 1080)
private let right = Rect(x: 1920, y: 0, width: 1920, height: 1080)
private let whole = Rect(x: 0, y: 0, width: 3840, height: 1080)

/// An override-redirect window the window manager knows nothing of.
private func unmanaged(_ frame: Rect, inputOnly: Bool = false, viewable: Bool = true, holdsClient: Bool = false) -> TopLevelWindow {
    TopLevelWindow(id: 7, frame: frame, isOverrideRedirect: true, isInputOnly: inputOnly, isViewable: viewable, holdsClient: holdsClient)
}

@Suite("Coverage: what covers a monitor and what is in a toast's way")
struct CoverageTests {
    @Test("A locker over the whole screen covers every monitor")
    func locker() {
        #expect(Coverage.covered([unmanaged(whole)], screenSaverOn: false, input: .held, monitors: [left, right]) == [true, true])
    }

    @Test("An override-redirect window over one monitor (a game) covers that one only")
    func oneMonitor() {
        #expect(Coverage.covered([unmanaged(left)], screenSaverOn: false, input: .held, monitors: [left, right]) == [true, false])
    }

    @Test(
        "What never covers: InputOnly, unmapped, a window manager's frame, a managed window, one 5 px short",
        arguments: [
            unmanaged(whole, inputOnly: true),
            unmanaged(whole, viewable: false),
            unmanaged(whole, holdsClient: true),  // i3's frame around a fullscreen film
            TopLevelWindow(id: 7, frame: whole),
            unmanaged(Rect(x: 0, y: 5, width: 3840, height: 1075)),
            unmanaged(Rect(x: -100, y: -100, width: 1, height: 1)),  // Openbox's helper
        ])
    func notCovering(window: TopLevelWindow) {
        #expect(Coverage.covered([window], screenSaverOn: false, input: .held, monitors: [left, right]) == [false, false])
    }

    @Test("A locker holds the input: the same window without both grabs is an overlay (a key-cast or annotation tool), or a key held down")
    func lockersHoldTheInput() {
        for (input, locked) in [
            (InputGrabs.held, true), (.free, false), (InputGrabs(keyboard: true, pointer: false), false),
            (InputGrabs(keyboard: false, pointer: true), false),
        ] {
            #expect(Coverage.covered([unmanaged(whole)], screenSaverOn: false, input: input, monitors: [left, right]) == [locked, locked])
        }
    }

    @Test("xsecurelock's obscurer, a pixel in from each edge, locks; gromit-mpx's canvas, a pixel short, would too with the grabs")
    func insetLockers() {
        let obscurer = unmanaged(Rect(x: 1, y: 1, width: 1918, height: 1078))
        #expect(Coverage.covered([obscurer], screenSaverOn: false, input: .held, monitors: [left, right]) == [true, false])
        let canvas = unmanaged(Rect(x: 0, y: 0, width: 1920, height: 1079))
        #expect(Coverage.covered([canvas], screenSaverOn: false, input: .free, monitors: [left]) == [false])
        #expect(Coverage.covered([canvas], screenSaverOn: false, input: .held, monitors: [left]) == [true])
    }

    @Test("A shaped window draws only its shape: a region picker's outline locks nothing, a shape over the monitor does")
    func shapes() {
        var outline = unmanaged(left)
        outline.shape = [
            Rect(x: 0, y: 0, width: 1920, height: 1), Rect(x: 0, y: 1079, width: 1920, height: 1),
            Rect(x: 0, y: 0, width: 1, height: 1080), Rect(x: 1919, y: 0, width: 1, height: 1080),
        ]
        #expect(Coverage.covered([outline], screenSaverOn: false, input: .held, monitors: [left]) == [false])
        var empty = unmanaged(left)
        empty.shape = []
        #expect(Coverage.covered([empty], screenSaverOn: false, input: .held, monitors: [left]) == [false])
        var whole = unmanaged(Rect(x: 0, y: 0, width: 3840, height: 1080))
        whole.shape = [Rect(x: 1920, y: 0, width: 1920, height: 1080)]
        #expect(Coverage.covered([whole], screenSaverOn: false, input: .held, monitors: [left, right]) == [false, true])
    }

    @Test("The screen saver on covers every monitor, windows or not")
    func screenSaver() {
        #expect(Coverage.covered([], screenSaverOn: true, input: .free, monitors: [left, right]) == [true, true])
    }

    @Test("dwm's bar, an unmanaged strip across the top of a monitor, is in the way there only")
    func dwmBar() {
        let bar = unmanaged(Rect(x: 0, y: 0, width: 1920, height: 22))
        let reserved = Coverage.inTheWay([bar], monitors: [left, right])
        #expect(
            WorkArea.usable(left, screen: screen, struts: [], workArea: nil, inTheWay: reserved)
                == Rect(x: 0, y: 22, width: 1920, height: 1058))
        #expect(WorkArea.usable(right, screen: screen, struts: [], workArea: nil, inTheWay: reserved) == right)
    }

    @Test("A visible dock with no strut at the bottom (Xfce's auto-hiding launcher) lifts toasts above it")
    func strutlessDock() {
        let launcher = TopLevelWindow(id: 9, frame: Rect(x: 800, y: 1032, width: 320, height: 48), isDock: true)
        let band = Coverage.band(of: launcher, on: left)
        #expect(band?.edge == .bottom)
        #expect(band?.rect == Rect(x: 800, y: 1032, width: 320, height: 48))
        let usable = WorkArea.usable(
            left, screen: screen, struts: [], workArea: nil, inTheWay: Coverage.inTheWay([launcher], monitors: [left]))
        #expect(usable.maxY == 1032)
    }

    @Test(
        "Not in the way: a dock with a strut (WorkArea reads it), a hidden dock, a small override-redirect window (a toast), a tall strip, a frame",
        arguments: [
            TopLevelWindow(id: 9, frame: Rect(x: 800, y: 1032, width: 320, height: 48), isDock: true, hasStrut: true),
            TopLevelWindow(id: 9, frame: Rect(x: 800, y: 1032, width: 320, height: 48), isViewable: false, isDock: true),
            TopLevelWindow(id: 9, frame: Rect(x: 800, y: 1079, width: 320, height: 1), isViewable: false, isDock: true),
            unmanaged(Rect(x: 860, y: 1027, width: 200, height: 38)),
            unmanaged(Rect(x: 0, y: 0, width: 1920, height: 600)),
            unmanaged(Rect(x: 0, y: 0, width: 1920, height: 22), holdsClient: true),
            unmanaged(Rect(x: 0, y: 0, width: 1920, height: 22), inputOnly: true),
            TopLevelWindow(id: 9, frame: Rect(x: 800, y: 500, width: 320, height: 48), isDock: true),  // floating mid-screen
        ])
    func notInTheWay(window: TopLevelWindow) {
        #expect(Coverage.inTheWay([window], monitors: [left]).isEmpty)
    }

    @Test("A dock along the left edge keeps toasts to its right")
    func leftDock() {
        let dock = TopLevelWindow(id: 9, frame: Rect(x: 1920, y: 300, width: 64, height: 480), isDock: true)
        let reserved = Coverage.inTheWay([dock], monitors: [left, right])
        #expect(WorkArea.usable(right, screen: screen, struts: [], workArea: nil, inTheWay: reserved).x == 1984)
        #expect(WorkArea.usable(left, screen: screen, struts: [], workArea: nil, inTheWay: reserved) == left)
    }

    @Test("No stacking list (dwm): a film fullscreen on one monitor covers it while the focus is on the other")
    func dwmFilm() {
        let film = ClientWindow(id: 1, frame: left, isFullscreen: true)
        let terminal = ClientWindow(id: 2, frame: Rect(x: 1920, y: 22, width: 1920, height: 1058))
        let snapshot = DesktopSnapshot(active: terminal, unordered: [film, terminal])
        #expect(Fullscreen.covered(snapshot, monitors: [left, right]) == [true, false])
        var hidden = film
        hidden.isHidden = true
        #expect(
            Fullscreen.covered(DesktopSnapshot(active: terminal, unordered: [hidden, terminal]), monitors: [left, right]) == [false, false])
        // With a stacking list, the list decides (a window over the film uncovers it).
        let over = ClientWindow(id: 3, frame: left, isMaximized: true)
        let stacked = DesktopSnapshot(stacking: [film, over, terminal], active: terminal, unordered: [film])
        #expect(Fullscreen.covered(stacked, monitors: [left, right]) == [false, false])
    }

    @Test("An override-redirect window with a managed window over it is a background (an animated wallpaper), not a locker")
    func background() {
        let wallpaper = unmanaged(whole)
        let terminal = TopLevelWindow(id: 8, frame: Rect(x: 100, y: 100, width: 400, height: 300))
        #expect(
            Coverage.covered(Coverage.stacked([wallpaper, terminal]), screenSaverOn: false, input: .held, monitors: [left, right]) == [
                false, false,
            ])
        // Over everything (a locker, a game), it covers.
        #expect(
            Coverage.covered(Coverage.stacked([terminal, wallpaper]), screenSaverOn: false, input: .held, monitors: [left, right]) == [
                true, true,
            ])
        // Under a window manager's frame too (i3's frames are override-redirect, and hold a client).
        let frame = unmanaged(Rect(x: 0, y: 0, width: 400, height: 300), holdsClient: true)
        #expect(Coverage.covered(Coverage.stacked([wallpaper, frame]), screenSaverOn: false, input: .held, monitors: [left]) == [false])
        // Toasts and menus over a locker change nothing.
        let toast = unmanaged(Rect(x: 860, y: 1027, width: 200, height: 38))
        #expect(
            Coverage.covered(Coverage.stacked([terminal, wallpaper, toast]), screenSaverOn: false, input: .held, monitors: [left]) == [true]
        )
    }
}
