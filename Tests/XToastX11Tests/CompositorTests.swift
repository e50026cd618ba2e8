import CX11
import Foundation
import Testing

/// Waits for a ShapeNotify on `window`, which xtoast causes when it switches drawing mode.
/// Returns at a `ShapeNotify` after which `settled` holds: one change of the window's shape
/// comes as one event for each kind it sets (bounding, input), so the first may be an
/// earlier change's.
func waitForShapeChange(_ watcher: XWatcher, _ window: Window, timeout: Double = 10, until settled: () -> Bool = { true }) throws {
    var eventBase: Int32 = 0
    var errorBase: Int32 = 0
    guard XShapeQueryExtension(watcher.display, &eventBase, &errorBase) != 0 else { throw TestFailure("no SHAPE extension") }
    let deadline = Date().addingTimeInterval(timeout)
    while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow) {
        if event.type == eventBase + ShapeNotify && settled() { return }
    }
    throw TestFailure("the window's shape did not change within \(timeout) s")
}

extension OnScreen {
    @Suite struct WithoutACompositor {
        @Test func cornersAreShapedAndColoursOpaque() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            #expect(!watcher.compositorRunning)
            let toast = try XToastProcess(["--duration", "sticky", "--radius", "8", "No compositor"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            #expect(watcher.boundingShape(window).count > 1, "corners are not cut")

            // No compositor: the first frame is on screen once xtoast says it is out.
            try watcher.waitForShown(pid: toast.child.pid)
            let shot = try Screenshot(display: server.name)
            let corner = shot.pixel(frame.x, frame.y)
            #expect(
                corner.r == backgroundColour.r && corner.g == backgroundColour.g && corner.b == backgroundColour.b, "corner is \(corner)")
            let inside = shot.pixel(frame.x + 3, frame.y + frame.height / 2)
            #expect(inside.r == 0 && inside.g == 0 && inside.b == 0, "the box is not opaque black: \(inside)")
            toast.signal(SIGTERM)
            #expect(try toast.wait().status == 143)
        }

        @Test func aCompositorStartingAndStoppingMidToastBreaksNothing() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let toast = try XToastProcess(["--duration", "sticky", "--position", "center", "Survives"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            XShapeSelectInput(watcher.display, window, UInt(ShapeNotifyMask))
            XSync(watcher.display, 0)
            #expect(watcher.boundingShape(window).count > 1)
            let plainInset = watcher.topRowInset(window)

            // Under a compositor the window keeps the box's outline (its shadow follows it), now
            // with every pixel the curve touches: their alpha blends.
            try server.startCompositor(watcher: watcher)
            try waitForShapeChange(watcher, window)
            #expect(watcher.boundingShape(window).count > 1, "not shaped to the box under a compositor")
            #expect(watcher.topRowInset(window) < plainInset, "the antialiased edge pixels are cut off")
            let frame = try #require(watcher.geometry(window))

            try server.stopCompositor(watcher: watcher)
            try waitForShapeChange(watcher, window)
            #expect(watcher.topRowInset(window) == plainInset, "corners not cut to 1-bit again after the compositor left")
            let shot = try Screenshot(display: server.name)
            let inside = shot.pixel(frame.x + 3, frame.y + frame.height / 2)
            #expect(inside.r == 0 && inside.g == 0 && inside.b == 0, "the box is not opaque black: \(inside)")

            toast.signal(SIGTERM)
            #expect(try toast.wait().status == 143)
        }

        @Test func theServerDyingMidFadeIsOneClearError() throws {
            let server = try PrivateXServer()
            let toast: XToastProcess
            do {
                // The watcher disconnects before the server dies: Xlib would end this process too.
                let watcher = try XWatcher(display: server.name)
                try server.startCompositor(watcher: watcher)
                toast = try XToastProcess(["--fade-in", "10", "Going down"], display: server.name)
                _ = try watcher.waitForToasts()
            }
            server.compositor?.stop(with: SIGKILL)
            server.xvfb.stop(with: SIGKILL)
            let result = try toast.wait(timeout: 10)
            #expect(result.status == 1)
            #expect(result.stderr == "xtoast: lost the connection to the X server\n")
        }
    }
}
