import CX11
import Foundation
import Testing

extension OnScreen {
    /// Issue #22: what the window manager does not describe. Real dwm (its bar is an
    /// override-redirect strip, it publishes no stacking list) on two monitors of a private
    /// server.
    @Suite struct UndescribedDesktop {
        @Test func dwmsBarAndAFilmOnTheMonitorWithoutTheFocus() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            try runTool("xrandr", ["--setmonitor", "L", "1920/508x1080/286+0+0", "screen"], display: server.name)
            try runTool("xrandr", ["--setmonitor", "R", "1920/508x1080/286+1920+0", "none"], display: server.name)
            let watcher = try XWatcher(display: server.name)
            try runTool("xdotool", ["mousemove", "500", "500"], display: server.name)
            let dwm = try Child(["dwm"], environment: ["DISPLAY": server.name])
            defer { dwm.stop() }
            // Its bars: override-redirect strips across the top of each monitor.
            let bar = try watcher.waitFor("dwm's bars", timeout: 10) { () -> Int? in
                let bars = watcher.stackingOrder().compactMap { window -> Int? in
                    guard let a = watcher.attributes(window), a.override_redirect != 0, a.map_state == IsViewable, a.y == 0,
                        a.width == 1920, a.height < 100
                    else { return nil }
                    return Int(a.height)
                }
                return bars.count == 2 ? bars[0] : nil
            }

            // A top toast sits 15 px below the bar, not in it.
            let top = try XToastProcess(
                ["--monitor", "L", "--position", "top", "--duration", "0.3", "Below the bar"], display: server.name)
            let topWindow = try #require(try watcher.waitForToasts().first)
            #expect(watcher.geometry(topWindow)?.y == bar + 15)
            #expect(try top.wait().status == 0)

            // A film fullscreen on L, then the focus on R with a window there.
            let film = try PlainClient(display: server.name, name: "film")
            _ = try watcher.waitFor("the film managed", timeout: 5) { watcher.geometry(film.id)?.y == bar ? true : nil }
            film.requestFullscreen(true)
            _ = try watcher.waitFor("the film fullscreen", timeout: 5) { watcher.geometry(film.id)?.height == 1080 ? true : nil }
            try runTool("xdotool", ["mousemove", "2500", "500"], display: server.name)
            let terminal = try PlainClient(display: server.name, name: "terminal")
            _ = try watcher.waitFor("the terminal on R, active", timeout: 5) { () -> Bool? in
                let active = watcher.longs(watcher.root, "_NET_ACTIVE_WINDOW", type: Atom(XA_WINDOW), limit: 1).first
                return active == UInt(terminal.id) && (watcher.geometry(terminal.id)?.x ?? 0) >= 1920 ? true : nil
            }
            #expect(watcher.longs(watcher.root, "_NET_CLIENT_LIST_STACKING", type: Atom(XA_WINDOW)).isEmpty)

            // A plain toast for L waits for the film (it used to show over it).
            watcher.watchRootProperties()
            let later = try XToastProcess(
                ["--monitor", "L", "--duration", "0.3", "--fade-in", "0", "--fade-out", "0", "--print-outcome", "After the film"],
                display: server.name)
            try watcher.waitForChanges(of: "_XTOAST_QUEUE", count: 2)
            let deadline = Date().addingTimeInterval(0.5)
            while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow), Date() < deadline {
                #expect(!(event.type == MapNotify && watcher.isToast(event.xmap.window)), "a delayed toast showed over the film")
            }
            film.requestFullscreen(false)
            let shown = try #require(try watcher.waitForToasts().first)
            #expect((watcher.geometry(shown)?.x ?? 9999) < 1920)
            #expect(try later.wait().stdout == "expired\n")
            withExtendedLifetime((film, terminal)) {}
        }
    }
}

/// A plain top-level window on its own connection, which asks for fullscreen as players do.
private final class PlainClient {
    let display: OpaquePointer
    let id: Window

    init(display name: String, name title: String) throws {
        guard let display = XOpenDisplay(name) else { throw TestFailure("cannot open display \(name)") }
        self.display = display
        id = XCreateSimpleWindow(display, XDefaultRootWindow(display), 100, 100, 400, 300, 0, 0, 0)
        XStoreName(display, id, title)
        XMapWindow(display, id)
        XSync(display, 0)
    }

    deinit { XCloseDisplay(display) }

    func requestFullscreen(_ on: Bool) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = id
        event.xclient.message_type = XInternAtom(display, "_NET_WM_STATE", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = on ? 1 : 0
        event.xclient.data.l.1 = Int(XInternAtom(display, "_NET_WM_STATE_FULLSCREEN", 0))
        event.xclient.data.l.3 = 1
        XSendEvent(display, XDefaultRootWindow(display), 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        XSync(display, 0)
    }
}
