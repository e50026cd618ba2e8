import CX11
import Foundation
import Testing

extension OnScreen {
    /// Issue #22: a click on a toast is the toast's alone. It closes on the release, so the
    /// window below sees neither the press nor the release (closed on the press, the release
    /// went to the window under it: an xterm in mouse mode logged it).
    @Suite struct ClickRelease {
        @Test func theWindowBelowSeesNothingOfAClickOnTheToast() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let below = try ButtonLogger(display: server.name, frame: (0, 540, 3840, 540))
            let toast = try XToastProcess(["--duration", "sticky", "--print-outcome", "Click me"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            let (x, y) = (frame.x + frame.width / 2, frame.y + frame.height / 2)
            try runTool("xdotool", ["mousemove", String(x), String(y), "mousedown", "1"], display: server.name)
            // Pressed, not released: still there.
            #expect(watcher.survives(window, for: 0.3), "closed on the press")
            try runTool("xdotool", ["mouseup", "1"], display: server.name)
            try watcher.waitForDestroy(window)
            #expect(try toast.wait().stdout == "clicked\n")
            // Anything sent to the window below has arrived once a round trip of its own is back.
            #expect(below.buttonEvents() == [], "the window below saw the click")
        }

        /// Pressed on the toast, released elsewhere: no click (as any button), and the toast stays.
        @Test func aPressDraggedOffIsNoClick() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let toast = try XToastProcess(["--duration", "sticky", "--print-outcome", "Drag off"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            try runTool(
                "xdotool",
                ["mousemove", String(frame.x + 5), String(frame.y + 5), "mousedown", "1", "mousemove", "100", "100", "mouseup", "1"],
                display: server.name)
            #expect(watcher.survives(window, for: 0.3), "a press dragged off closed the toast")
            toast.signal(SIGUSR1)
            #expect(try toast.wait().stdout == "dismissed\n")
        }
    }
}

/// A plain window on its own connection that records the button events it gets, as an xterm in
/// mouse mode would.
private final class ButtonLogger {
    let display: OpaquePointer
    let id: Window

    init(display name: String, frame: (x: Int32, y: Int32, width: UInt32, height: UInt32)) throws {
        guard let display = XOpenDisplay(name) else { throw TestFailure("cannot open display \(name)") }
        self.display = display
        id = XCreateSimpleWindow(display, XDefaultRootWindow(display), frame.x, frame.y, frame.width, frame.height, 0, 0, 0)
        XSelectInput(display, id, ButtonPressMask | ButtonReleaseMask)
        XMapWindow(display, id)
        XSync(display, 0)
    }

    deinit { XCloseDisplay(display) }

    /// The types of the button events that came, in order.
    func buttonEvents() -> [Int32] {
        XSync(display, 0)
        var types: [Int32] = []
        var event = XEvent()
        while XPending(display) > 0 {
            XNextEvent(display, &event)
            if event.type == ButtonPress || event.type == ButtonRelease { types.append(event.type) }
        }
        return types
    }
}
