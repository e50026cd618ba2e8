import CX11
import Foundation
import Testing

/// Where the hover tests leave the pointer: on R, away from every place a toast goes.
private let restingPlace = (x: 2500, y: 300)

/// Moves the pointer the way a mouse does. `xdotool mousemove` warps it, which X reports to the
/// window under it (motion, crossing) but not as XInput 2 raw motion; a relative move through
/// XTEST is device input and is. A click-through toast, which gets no events of its own, only
/// sees the latter.
private func movePointerLikeAMouse(to x: Int, _ y: Int, display: String) throws {
    try runTool("xdotool", ["mousemove", String(x - 2), String(y - 2)], display: display)
    try runTool("xdotool", ["mousemove_relative", "--", "2", "2"], display: display)
}

extension XWatcher {
    /// The rectangles of the window's input shape: where clicks land (empty: nowhere).
    func inputShape(_ window: Window) -> [XRectangle] {
        var count: Int32 = 0
        var ordering: Int32 = 0
        guard let rects = XShapeGetRectangles(display, window, ShapeInput, &count, &ordering) else { return [] }
        defer { XFree(rects) }
        return Array(UnsafeBufferPointer(start: rects, count: Int(count)))
    }

    /// Whether `window` is still there after `seconds`, unmapped (withdrawn under a locker),
    /// reading events meanwhile.
    func survivesWithdrawn(_ window: Window, for seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while let event = nextEvent(timeout: deadline.timeIntervalSinceNow) {
            if event.type == DestroyNotify && event.xdestroywindow.window == window { return false }
        }
        return attributes(window)?.map_state == IsUnmapped
    }

    /// Waits until `window` is unmapped.
    func waitForUnmap(_ window: Window, timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while attributes(window)?.map_state == IsViewable {
            guard let event = nextEvent(timeout: deadline.timeIntervalSinceNow) else {
                throw TestFailure("window 0x\(String(window, radix: 16)) still mapped after \(timeout) s")
            }
            if event.type == UnmapNotify && event.xunmap.window == window { return }
        }
    }

    /// Whether `window` is still there after `seconds`, reading events meanwhile.
    func survives(_ window: Window, for seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while let event = nextEvent(timeout: deadline.timeIntervalSinceNow) {
            if event.type == DestroyNotify && event.xdestroywindow.window == window { return false }
        }
        return attributes(window)?.map_state == IsViewable
    }
}

/// Pause on hover (`HeldTimeline`, `PointerWatch`) and `--click-through`, end to end.
extension OnScreen {
    @Suite struct Hover {
        /// Fade in over 1 s (time to get the pointer there), hold 0.3 s, fade out 0.8 s: gone
        /// 2.1 s after it shows unless the pointer holds it.
        static let shortToast = ["--monitor", "L", "--fade-in", "1", "--duration", "0.3", "--print-outcome"]

        /// The pointer over the toast holds it well past its time; once it leaves, the toast
        /// holds the minimum (1 s; only 0.3 s of its hold was left) and fades out (0.8 s).
        @Test(arguments: [false, true])
        func pointerOverTheToastHoldsIt(clickThrough: Bool) throws {
            let (display, watcher) = try prepareSharedDisplay()
            try movePointer(to: restingPlace.x, restingPlace.y, display: display)
            defer { try? movePointer(to: restingPlace.x, restingPlace.y, display: display) }
            let toast = try XToastProcess(
                Self.shortToast + (clickThrough ? ["--click-through"] : []) + ["Hover me"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            try movePointerLikeAMouse(to: frame.x + frame.width / 2, frame.y + frame.height / 2, display: display)

            #expect(watcher.survives(window, for: 4), "gone while the pointer was over it")

            try movePointerLikeAMouse(to: restingPlace.x, restingPlace.y, display: display)
            let left = Date()
            try watcher.waitForDestroy(window, timeout: 10)
            let after = Date().timeIntervalSince(left)
            #expect(after >= 1.6 && after < 3, "gone \(after) s after the pointer left, expected 1 + 0.8")
            let result = try toast.wait()
            #expect(result.stdout == "expired\n")
        }

        /// A toast that shows under a resting pointer runs its course: nobody moved onto it.
        @Test func aToastUnderARestingPointerIsNotHeld() throws {
            let (display, watcher) = try prepareSharedDisplay()
            defer { try? movePointer(to: restingPlace.x, restingPlace.y, display: display) }
            // The toast design's box on L: bottom centre, 15 px up, at least 38 px high.
            try movePointer(to: leftMonitor.width / 2, 1080 - 15 - 19, display: display)
            let started = Date()
            let toast = try XToastProcess(Self.shortToast + ["Under the pointer"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            let pointer = (x: leftMonitor.width / 2, y: 1080 - 15 - 19)
            #expect(pointer.x > frame.x && pointer.x < frame.x + frame.width && pointer.y > frame.y && pointer.y < frame.y + frame.height)
            try watcher.waitForDestroy(window, timeout: 10)
            let lasted = Date().timeIntervalSince(started)
            #expect(lasted < 3.5, "lasted \(lasted) s, expected about 2.1")
            #expect(try toast.wait().stdout == "expired\n")
        }

        /// Caught while fading out, the toast comes back to full opacity and stays.
        @Test func aFadingToastComesBack() throws {
            let (display, watcher) = try prepareSharedDisplay()
            try movePointer(to: restingPlace.x, restingPlace.y, display: display)
            defer { try? movePointer(to: restingPlace.x, restingPlace.y, display: display) }
            let toast = try XToastProcess(
                ["--monitor", "L", "--fade-in", "0", "--duration", "0", "--fade-out", "3", "--easing", "linear", "Fading"], display: display
            )
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            Thread.sleep(forTimeInterval: 1)  // into the fade (a third of it)
            // Format-32 data comes as C longs, sign-extended.
            let opacity = { (watcher.longs(window, "_NET_WM_WINDOW_OPACITY", type: Atom(XA_CARDINAL), limit: 1).first ?? 0) & 0xffff_ffff }
            let faded = opacity()
            #expect(faded < 0xffff_ffff && faded > 0, "opacity \(faded)")
            try movePointerLikeAMouse(to: frame.x + frame.width / 2, frame.y + frame.height / 2, display: display)
            // The way back takes at most a fade-in (0 here): opaque again at the next frames.
            let deadline = Date().addingTimeInterval(3)
            while opacity() != 0xffff_ffff && Date() < deadline { _ = watcher.nextEvent(timeout: 0.05) }
            #expect(opacity() == 0xffff_ffff)
            #expect(watcher.survives(window, for: 3), "it faded out under the pointer")
            try movePointer(to: restingPlace.x, restingPlace.y, display: display)
            try watcher.waitForDestroy(window, timeout: 10)
            #expect(try toast.wait().status == 0)
        }

        /// `--click-through`: the input shape is empty; a click over the toast reaches the window
        /// below, and the toast does not take it as its own.
        @Test func clicksGoThroughToTheWindowBelow() throws {
            let (display, watcher) = try prepareSharedDisplay()
            try movePointer(to: restingPlace.x, restingPlace.y, display: display)
            defer { try? movePointer(to: restingPlace.x, restingPlace.y, display: display) }
            // An ordinary window over L's bottom half, where the toast goes, listening for clicks.
            let below = watcher.mapPlainWindow((x: 200, y: 540, width: 1520, height: 540))
            defer {
                XDestroyWindow(watcher.display, below)
                XSync(watcher.display, 0)
            }
            XSelectInput(watcher.display, below, ButtonPressMask)
            XSync(watcher.display, 0)
            let toast = try XToastProcess(
                ["--monitor", "L", "--duration", "1.5", "--click-through", "--print-outcome", "Through"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            #expect(watcher.inputShape(window).isEmpty)
            #expect(watcher.stackingOrder().firstIndex(of: window)! > watcher.stackingOrder().firstIndex(of: below)!)

            try click(frame, display: display)
            var pressed: XButtonEvent?
            let deadline = Date().addingTimeInterval(5)
            while pressed == nil, let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow) {
                if event.type == ButtonPress && event.xbutton.window == below { pressed = event.xbutton }
            }
            let press = try #require(pressed, "the click did not reach the window below")
            #expect(Int(press.x_root) == frame.x + frame.width / 2 && Int(press.y_root) == frame.y + frame.height / 2)
            let result = try toast.wait()
            #expect(result.stdout == "expired\n")
        }

        /// Without `--click-through` the toast takes the click, as before.
        @Test func withoutClickThroughTheToastTakesTheClick() throws {
            let (display, watcher) = try prepareSharedDisplay()
            try movePointer(to: restingPlace.x, restingPlace.y, display: display)
            defer { try? movePointer(to: restingPlace.x, restingPlace.y, display: display) }
            let toast = try XToastProcess(["--monitor", "L", "--duration", "sticky", "--print-outcome", "Mine"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            #expect(watcher.inputShape(window).count == 1)
            try click(frame, display: display)
            #expect(try toast.wait().stdout == "clicked\n")
        }
    }
}
