import Foundation
import Testing

extension OnScreen {
    /// A full stack: the toast that has no room on its monitor waits for one to go, then shows
    /// there; no toast is ever placed past the monitor's edge.
    @Test func aFullStackWaitsForRoomOnItsMonitor() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        // Twelve lines each: four or five fill a 1080-pixel monitor.
        let text = (1...12).map { "line \($0)" }.joined(separator: "\n")
        var toasts: [XToastProcess] = []
        defer { toasts.forEach { $0.signal(SIGKILL) } }
        var waiting: XToastProcess?
        for _ in 1...8 {
            let toast = try XToastProcess(["--stack", "--duration", "sticky", "--fade-in", "0", text], display: server.name)
            toasts.append(toast)
            do {
                try watcher.waitForShown(pid: toast.child.pid, timeout: 3)
            } catch {
                // Not shown: no room left (the bound is only how long we look).
                waiting = toast
                break
            }
        }
        let late = try #require(waiting, "all eight stacked toasts showed: some must be off the monitor")
        let onScreen = watcher.mappedToasts().compactMap { watcher.geometry($0) }
        #expect(onScreen.count == toasts.count - 1)
        for frame in onScreen { #expect(frame.y >= 0 && frame.y + frame.height <= 1080, "\(frame) leaves the monitor") }
        // The oldest goes: the one that waited shows, on the monitor.
        toasts[0].signal(SIGUSR1)
        _ = try watcher.waitForShown(pid: late.child.pid, timeout: 10)
        let deadline = Date().addingTimeInterval(3)
        while watcher.nextEvent(timeout: deadline.timeIntervalSinceNow) != nil {}
        for frame in watcher.mappedToasts().compactMap({ watcher.geometry($0) }) {
            #expect(frame.y >= 0 && frame.y + frame.height <= 1080, "\(frame) leaves the monitor")
        }
        for toast in toasts { toast.signal(SIGUSR1) }
        for toast in toasts { #expect(try toast.wait().status == 0) }
    }
}
