import CX11
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

extension OnScreen {
    /// Issue #28 (D8): stacked toasts started all at once, most of the toasts before each one
    /// not drawn yet when it looks for its place. However many come at once, no window is ever
    /// on screen past its monitor's edges, and every toast shows in the end.
    @Test(arguments: [30, 80])
    func stackedToastsStartedTogetherStayOnTheMonitor(count: Int) throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let quick = ["--stack", "--duration", "2", "--fade-in", "0", "--fade-out", "0", "--print-outcome"]
        let toasts = try (1...count).map { try XToastProcess(quick + ["Stacked \($0)"], display: server.name) }
        defer { for toast in toasts where toast.child.isRunning { toast.signal(SIGKILL) } }
        // Nothing but toasts is ever mapped on this server (tickets never are): every window
        // mapped, or moved while mapped, must lie on the monitor.
        var frames: [Window: (x: Int, y: Int, width: Int, height: Int)] = [:]
        var mapped: Set<Window> = []
        var created: Set<Window> = []
        // Window ids are handed out again: each creation's first map counts.
        var shown = 0
        var outside: [String] = []
        func check(_ window: Window) {
            guard mapped.contains(window), let f = frames[window] else { return }
            if f.y < 0 || f.y + f.height > 1080 { outside.append("\(f)") }
        }
        func handle(_ event: XEvent) {
            switch event.type {
            case CreateNotify:
                let e = event.xcreatewindow
                frames[e.window] = (Int(e.x), Int(e.y), Int(e.width), Int(e.height))
                created.insert(e.window)
            case ConfigureNotify:
                let e = event.xconfigure
                frames[e.window] = (Int(e.x), Int(e.y), Int(e.width), Int(e.height))
                check(e.window)
            case MapNotify:
                mapped.insert(event.xmap.window)
                if created.remove(event.xmap.window) != nil { shown += 1 }
                check(event.xmap.window)
            case UnmapNotify: mapped.remove(event.xunmap.window)
            case DestroyNotify: mapped.remove(event.xdestroywindow.window)
            default: break
            }
        }
        // A process's end is no X event: between events, whether they all ended is looked at.
        let deadline = Date().addingTimeInterval(Double(count) * 1.5 + 30)
        while toasts.contains(where: { $0.child.isRunning }) {
            guard Date() < deadline else { throw TestFailure("the toasts did not all end within their time") }
            if let event = watcher.nextEvent(timeout: 0.2) { handle(event) }
        }
        while let event = watcher.nextEvent(timeout: 0) { handle(event) }
        #expect(outside.count == 0, "a toast window past the monitor's edge, the first of them: \(outside.prefix(5))")
        #expect(shown == count, "\(shown) of \(count) toasts showed")
        for toast in toasts { #expect(try toast.wait().stdout == "expired\n") }
    }
}
