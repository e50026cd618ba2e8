import CX11
import Foundation
import Testing

extension OnScreen {
    /// Issue #22: a click-through toast gets no events of its own and follows the pointer by raw
    /// motion, which a warp does not make. A pointer warped away must not keep it held.
    @Suite struct ClickThroughWarp {
        @Test func aPointerWarpedAwayLetsTheToastGo() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let resting = (x: 2500, y: 300)
            try movePointer(to: resting.x, resting.y, display: display)
            defer { try? movePointer(to: resting.x, resting.y, display: display) }
            let toast = try XToastProcess(
                ["--monitor", "L", "--fade-in", "1", "--duration", "0.3", "--print-outcome", "--click-through", "Warp away"],
                display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            // Onto it as a mouse moves (raw motion), then away by a warp (none).
            let (x, y) = (frame.x + frame.width / 2, frame.y + frame.height / 2)
            try runTool("xdotool", ["mousemove", String(x - 2), String(y - 2)], display: display)
            try runTool("xdotool", ["mousemove_relative", "--", "2", "2"], display: display)
            #expect(watcher.survives(window, for: 3), "gone while the pointer was over it")
            try runTool("xdotool", ["mousemove", String(resting.x), String(resting.y)], display: display)
            let warped = Date()
            try watcher.waitForDestroy(window, timeout: 10)
            let after = Date().timeIntervalSince(warped)
            // Noticed within a rest look (1 s), then the hover minimum (1 s) and the fade (0.8 s).
            #expect(after < 6, "gone \(after) s after the warp: held as if the pointer were still there")
            #expect(try toast.wait().stdout == "expired\n")
        }
    }
}
