import CX11
import Foundation
import Testing

/// The monitors every test on the shared display expects: two 1920x1080 side by side.
let leftMonitor = (x: 0, width: 1920)
let rightMonitor = (x: 1920, width: 1920)

/// Makes the shared display two RandR monitors (L, R) with a known background.
func prepareSharedDisplay() throws -> (name: String, watcher: XWatcher) {
    let name = try sharedDisplay()
    let watcher = try XWatcher(display: name)
    let width = Int(XDisplayWidth(watcher.display, 0))
    guard width == 3840 else { throw TestFailure("the shared display must be 3840x1080 (it is \(width) wide)") }
    // Naming the output `screen` for L replaces Xvfb's whole-screen monitor; once done, the
    // output is taken and a second --setmonitor would fail.
    let listed = try runTool("xrandr", ["--listmonitors"], display: name)
    if !(listed.contains(" L ") && listed.contains(" R ")) {
        try runTool("xrandr", ["--setmonitor", "L", "1920/508x1080/286+0+0", "screen"], display: name)
        try runTool("xrandr", ["--setmonitor", "R", "1920/508x1080/286+1920+0", "none"], display: name)
    }
    try setBackground(on: name)
    do {
        try watcher.waitForCompositor(running: true)
    } catch {
        throw TestFailure("no compositor on \(name): the test command starts picom")
    }
    return (name, watcher)
}

func movePointer(to x: Int, _ y: Int, display: String) throws {
    try runTool("xdotool", ["mousemove", String(x), String(y)], display: display)
}

/// A left click in the middle of `frame`, as a user's.
func click(_ frame: (x: Int, y: Int, width: Int, height: Int), display: String) throws {
    try runTool(
        "xdotool", ["mousemove", String(frame.x + frame.width / 2), String(frame.y + frame.height / 2), "click", "1"], display: display)
}

/// Tests against a real X server. They share servers and the FIFO of toasts, so they run one
/// at a time.
@Suite(.serialized)
struct OnScreen {
    @Test func windowIsAnOverrideRedirectNotificationAtTheBottomCentreOfThePointersMonitor() throws {
        let (display, watcher) = try prepareSharedDisplay()
        try movePointer(to: 2500, 300, display: display)
        let toast = try XToastProcess(["--duration", "0.2", "--print-outcome", "Tagged"], display: display)
        let window = try #require(try watcher.waitForToasts().first)

        let attributes = try #require(watcher.attributes(window))
        #expect(attributes.override_redirect != 0)
        #expect(attributes.depth == 32)
        #expect(watcher.classHint(window)?.name == "xtoast")
        #expect(watcher.classHint(window)?.cls == "Xtoast")
        #expect(watcher.atomList(window, "_NET_WM_WINDOW_TYPE") == ["_NET_WM_WINDOW_TYPE_NOTIFICATION"])

        let frame = try #require(watcher.geometry(window))
        #expect(frame.height >= 38)
        #expect(frame.x == rightMonitor.x + (rightMonitor.width - frame.width) / 2)
        #expect(frame.y == 1080 - 15 - frame.height)

        let result = try toast.wait()
        #expect(result.status == 0)
        #expect(result.stdout == "expired\n")
        #expect(watcher.mappedToasts().isEmpty)
    }

    @Test(arguments: [("L", leftMonitor.x), ("R", rightMonitor.x), ("0", leftMonitor.x), ("1", rightMonitor.x)])
    func monitorByNameOrIndex(choice: String, monitorX: Int) throws {
        let (display, watcher) = try prepareSharedDisplay()
        try movePointer(to: 2500, 300, display: display)
        let toast = try XToastProcess(["--monitor", choice, "--duration", "0", "--position", "top-left", "Here"], display: display)
        let window = try #require(try watcher.waitForToasts().first)
        let frame = try #require(watcher.geometry(window))
        #expect(frame.x == monitorX + 15)
        #expect(frame.y == 15)
        #expect(try toast.wait().status == 0)
    }

    @Test func allMonitorsShowTheToastTogether() throws {
        let (display, watcher) = try prepareSharedDisplay()
        let toast = try XToastProcess(["--monitor", "all", "--duration", "0.3", "Everywhere"], display: display)
        let windows = try watcher.waitForToasts(count: 2)
        let xs = windows.compactMap { watcher.geometry($0)?.x }.sorted()
        #expect(xs.count == 2)
        #expect(xs[0] < rightMonitor.x && xs[1] >= rightMonitor.x)
        // A toast never straddles two monitors.
        for window in windows {
            let frame = try #require(watcher.geometry(window))
            #expect((frame.x < 1920) == (frame.x + frame.width <= 1920))
        }
        #expect(try toast.wait().status == 0)
    }

    @Test func offsetMovesTheToastButNeverOffItsMonitor() throws {
        let (display, watcher) = try prepareSharedDisplay()
        let toast = try XToastProcess(["--monitor", "L", "--offset", "5000,-40", "--duration", "0", "Clamped"], display: display)
        let window = try #require(try watcher.waitForToasts().first)
        let frame = try #require(watcher.geometry(window))
        #expect(frame.x + frame.width == leftMonitor.width)
        #expect(frame.y == 1080 - 15 - frame.height - 40)
        #expect(try toast.wait().status == 0)
    }

    @Test func midFadeIsBlendedOverTheBackground() throws {
        let (display, watcher) = try prepareSharedDisplay()
        let fadeIn = 4.0
        let toast = try XToastProcess(
            [
                "--monitor", "L", "--position", "center", "--easing", "linear", "--fade-in", String(fadeIn), "--duration", "0",
                "--fade-out", "0", "Fading",
            ],
            display: display)
        let window = try #require(try watcher.waitForToasts().first)
        let mapped = Date()
        let frame = try #require(watcher.geometry(window))
        // Get to the middle of the fade; the check below allows for when exactly the shot is taken.
        Thread.sleep(forTimeInterval: 1.5)
        let before = Date().timeIntervalSince(mapped)
        let shot = try Screenshot(display: display)
        let after = Date().timeIntervalSince(mapped)

        // A pixel of the background inside the box, away from the text and the corners.
        let pixel = shot.pixel(frame.x + 3, frame.y + frame.height / 2)
        func blue(atOpacity opacity: Double) -> Double { Double(backgroundColour.b) * (1 - 0.8 * opacity) }
        let frameSlack = 0.1  // the compositor shows a frame a little after it is drawn
        let brightest = blue(atOpacity: max(before - frameSlack, 0) / fadeIn) + 2
        let darkest = blue(atOpacity: min(after + frameSlack, fadeIn) / fadeIn) - 2
        #expect(Double(pixel.b) <= brightest && Double(pixel.b) >= darkest, "blue \(pixel.b) not in \(darkest)...\(brightest)")
        // Partial: neither the bare background nor the finished toast.
        #expect(pixel.b < backgroundColour.b - 10)
        #expect(Double(pixel.b) > blue(atOpacity: 1) + 10)

        // The rounded corner shows the background, not black.
        let corner = shot.pixel(frame.x, frame.y)
        #expect(abs(corner.b - backgroundColour.b) <= 8)
        #expect(try toast.wait().status == 0)
    }

    @Test func windowIsGoneAfterItsDuration() throws {
        let (display, watcher) = try prepareSharedDisplay()
        let toast = try XToastProcess(["--duration", "0.5", "--fade-in", "0.1", "--fade-out", "0.1", "Brief"], display: display)
        let window = try #require(try watcher.waitForToasts().first)
        let lifetime = try watcher.waitForDestroy(window)
        #expect(lifetime >= 0.65, "gone after \(lifetime) s, before fade in + hold + fade out")
        #expect(lifetime < 3)
        #expect(try toast.wait().status == 0)
        #expect(watcher.mappedToasts().isEmpty)
    }

    @Test func aClickDismissesItEvenWhileFading() throws {
        let (display, watcher) = try prepareSharedDisplay()
        let toast = try XToastProcess(
            ["--monitor", "L", "--fade-in", "10", "--duration", "sticky", "--print-outcome", "Click me"], display: display)
        let window = try #require(try watcher.waitForToasts().first)
        let frame = try #require(watcher.geometry(window))
        try click(frame, display: display)
        try watcher.waitForDestroy(window)
        let result = try toast.wait()
        #expect(result.status == 0)
        #expect(result.stdout == "clicked\n")
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGUSR1, Int32(0))])
    func aSignalRemovesTheWindow(signal: Int32, status: Int32) throws {
        let (display, watcher) = try prepareSharedDisplay()
        let toast = try XToastProcess(["--duration", "sticky", "Until signalled"], display: display)
        let window = try #require(try watcher.waitForToasts().first)
        toast.signal(signal)
        try watcher.waitForDestroy(window)
        #expect(try toast.wait().status == status)
        #expect(watcher.mappedToasts().isEmpty)
    }

    /// Libraries start threads before the loop reads signals (Pango loads fonts on one): a
    /// thread that does not block them would take a SIGUSR1 by its default action, and the toast
    /// would die with 138 instead of being dismissed (seen in CI). The signal goes as soon as the
    /// process blocks it, while such threads are young.
    @Test func aSignalDuringStartUpIsTheToastsNeverItsDefaultAction() throws {
        let (display, watcher) = try prepareSharedDisplay()
        for round in 0..<8 {
            let toast = try XToastProcess(
                ["--duration", "sticky", "--print-outcome", "Dismissed while starting \(round)"], display: display)
            try waitUntil("xtoast blocks SIGUSR1", interval: 0.0005) { Self.blocks(SIGUSR1, pid: toast.child.pid) }
            toast.signal(SIGUSR1)
            let result = try toast.wait()
            #expect(result.status == 0, "round \(round)")
            #expect(result.stdout == "dismissed\n", "round \(round)")
        }
        try waitUntil("no toast is left") { watcher.mappedToasts().isEmpty }
    }

    /// Whether the process's main thread blocks `signal` (/proc's SigBlk mask).
    static func blocks(_ signal: Int32, pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
            let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    @Test func staysAboveWindowsMappedAfterIt() throws {
        let (display, watcher) = try prepareSharedDisplay()
        let toast = try XToastProcess(["--monitor", "L", "--duration", "sticky", "On top"], display: display)
        let window = try #require(try watcher.waitForToasts().first)
        let frame = try #require(watcher.geometry(window))
        let cover = watcher.mapPlainWindow((frame.x - 10, frame.y - 10, frame.width + 20, frame.height + 20))
        defer { XDestroyWindow(watcher.display, cover) }
        // xtoast answers the map by raising itself: wait for its restack.
        var raised = false
        let deadline = Date().addingTimeInterval(5)
        while !raised, let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow) {
            if event.type == ConfigureNotify, event.xconfigure.window == window {
                let order = watcher.stackingOrder()
                raised = (order.firstIndex(of: window) ?? -1) > (order.firstIndex(of: cover) ?? Int.max)
            }
        }
        #expect(raised)
        toast.signal(SIGTERM)
        _ = try toast.wait()
    }
}

extension OnScreen {
    @Test func focusPicksTheMonitorOfTheActiveWindow() throws {
        let (display, watcher) = try prepareSharedDisplay()
        try movePointer(to: 100, 100, display: display)
        let active = watcher.mapPlainWindow((2200, 200, 800, 600))
        let property = watcher.atom("_NET_ACTIVE_WINDOW")
        var value = UInt(active)
        XChangeProperty(
            watcher.display, watcher.root, property, Atom(XA_WINDOW), 32, PropModeReplace,
            withUnsafeBytes(of: &value) { $0.baseAddress!.assumingMemoryBound(to: UInt8.self) }, 1)
        XSync(watcher.display, 0)
        defer {
            XDeleteProperty(watcher.display, watcher.root, property)
            XDestroyWindow(watcher.display, active)
            XSync(watcher.display, 0)
        }
        let toast = try XToastProcess(["--monitor", "focus", "--duration", "0", "Where I work"], display: display)
        let window = try #require(try watcher.waitForToasts().first)
        let frame = try #require(watcher.geometry(window))
        #expect(frame.x >= rightMonitor.x, "toast at x \(frame.x), not on the focused window's monitor")
        #expect(try toast.wait().status == 0)
    }

    @Test func xftDPIScalesEverything() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        func toastHeight() throws -> Int {
            let toast = try XToastProcess(["--duration", "sticky", "Scaled"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let height = try #require(watcher.geometry(window)?.height)
            toast.signal(SIGUSR1)
            #expect(try toast.wait().status == 0)
            return height
        }
        let normal = try toastHeight()
        let resources = temporaryPath(".Xresources")
        FileManager.default.createFile(atPath: resources, contents: Data("Xft.dpi: 192\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: resources) }
        try runTool("xrdb", ["-merge", resources], display: server.name)
        let doubled = try toastHeight()
        #expect(normal >= 38)
        #expect(abs(doubled - 2 * normal) <= 2, "height \(doubled) at 192 dpi, \(normal) at 96")
    }
}
