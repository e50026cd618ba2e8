import CX11
import Foundation
import Testing

extension OnScreen {
    /// Issue #22: what the window manager does not describe. Real dwm (its bar is an
    /// override-redirect strip, it publishes no stacking list) on two monitors of a private
    /// server.
    @Suite struct UndescribedDesktop {
        @Test func dwmsBarAndAFilmOnTheMonitorWithoutTheFocus() throws {
            try withDwmAndAFilm(barToast: true) { server, watcher, film in
                // A plain toast for L waits for the film (it used to show over it).
                let later = try XToastProcess(
                    ["--monitor", "L", "--duration", "0.3", "--fade-in", "0", "--fade-out", "0", "--print-outcome", "After the film"],
                    display: server.name)
                try waitUntilAside(watcher, pid: later.child.pid)
                try expectNoToastMapped(watcher, for: 0.5)
                film.requestFullscreen(false)
                let shown = try #require(try watcher.waitForToasts().first)
                #expect((watcher.geometry(shown)?.x ?? 9999) < 1920)
                #expect(try later.wait().stdout == "expired\n")
            }
        }

        /// Issue #28: the film's window destroyed (the player closed, not unfullscreened) ends
        /// the wait as leaving fullscreen does.
        @Test(arguments: [false, true])
        func dwmAndAFilmDestroyed(unmappedFirst: Bool) throws {
            try withDwmAndAFilm { server, watcher, film in
                let later = try XToastProcess(
                    ["--monitor", "L", "--duration", "0.3", "--fade-in", "0", "--fade-out", "0", "--print-outcome", "After the film"],
                    display: server.name)
                try waitUntilAside(watcher, pid: later.child.pid)
                try expectNoToastMapped(watcher, for: 0.5)
                film.destroy(unmappedFirst: unmappedFirst)
                let shown = try #require(try watcher.waitForToasts().first)
                #expect((watcher.geometry(shown)?.x ?? 9999) < 1920)
                #expect(try later.wait().stdout == "expired\n")
            }
        }
    }
}

/// Real dwm on a private server cut into two monitors, L and R; with `barToast`, a top toast on
/// L is checked to sit below dwm's bar first. Then a film fullscreen on L and a terminal on R
/// with the focus: `body` gets the film.
private func withDwmAndAFilm(barToast: Bool = false, _ body: (PrivateXServer, XWatcher, TestClient) throws -> Void) throws {
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

    if barToast {
        // A top toast sits 15 px below the bar, not in it.
        let top = try XToastProcess(["--monitor", "L", "--position", "top", "--duration", "0.3", "Below the bar"], display: server.name)
        let topWindow = try #require(try watcher.waitForToasts().first)
        #expect(watcher.geometry(topWindow)?.y == bar + 15)
        #expect(try top.wait().status == 0)
    }

    // A film fullscreen on L, then the focus on R with a window there.
    let film = try TestClient(display: server.name, name: "film")
    _ = try watcher.waitFor("the film managed", timeout: 5) { watcher.geometry(film.id)?.y == bar ? true : nil }
    film.requestFullscreen(true)
    _ = try watcher.waitFor("the film fullscreen", timeout: 5) { watcher.geometry(film.id)?.height == 1080 ? true : nil }
    try runTool("xdotool", ["mousemove", "2500", "500"], display: server.name)
    let terminal = try TestClient(display: server.name, name: "terminal")
    _ = try watcher.waitFor("the terminal on R, active", timeout: 5) { () -> Bool? in
        let active = watcher.longs(watcher.root, "_NET_ACTIVE_WINDOW", type: Atom(XA_WINDOW), limit: 1).first
        return active == UInt(terminal.id) && (watcher.geometry(terminal.id)?.x ?? 0) >= 1920 ? true : nil
    }
    #expect(watcher.longs(watcher.root, "_NET_CLIENT_LIST_STACKING", type: Atom(XA_WINDOW)).isEmpty)
    watcher.watchRootProperties()
    try body(server, watcher, film)
    withExtendedLifetime(terminal) {}
}

/// No toast is mapped for `seconds`. Absence has no event: half a second is many times what a
/// toast takes to show.
func expectNoToastMapped(_ watcher: XWatcher, for seconds: Double) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow), Date() < deadline {
        #expect(!(event.type == MapNotify && watcher.isToast(event.xmap.window)), "a delayed toast showed over the film")
    }
}

extension OnScreen.UndescribedDesktop {
    /// awesome's wibar declares its strut with a range of 0…0: the whole top edge.
    @Test func awesomesWibar() throws {
        let server = try PrivateXServer(width: 3840, height: 1080)
        try runTool("xrandr", ["--setmonitor", "L", "1920/508x1080/286+0+0", "screen"], display: server.name)
        try runTool("xrandr", ["--setmonitor", "R", "1920/508x1080/286+1920+0", "none"], display: server.name)
        let watcher = try XWatcher(display: server.name)
        let bus = try PrivateBus(display: server.name)
        let folder = temporaryPath("-awesome")
        let awesome = try Child(
            ["awesome"], environment: ["DISPLAY": server.name, "DBUS_SESSION_BUS_ADDRESS": bus.address],
            stdout: folder + ".log", stderr: folder + ".log")
        defer { awesome.stop() }
        let wibar = try watcher.waitFor("awesome's wibar", timeout: 15) { () -> Int? in
            let struts: [[UInt]] = watcher.stackingOrder().map {
                watcher.longs($0, "_NET_WM_STRUT_PARTIAL", type: Atom(XA_CARDINAL), limit: 12)
            }
            // The top edge's thickness, its range 0…0.
            let top = struts.first { (strut: [UInt]) -> Bool in strut.count == 12 && strut[2] > 0 && strut[8] == 0 && strut[9] == 0 }
            return top.map { Int($0[2]) }
        }
        let toast = try XToastProcess(
            ["--monitor", "L", "--position", "top", "--duration", "0.3", "Below the wibar"], display: server.name)
        let window = try #require(try watcher.waitForToasts().first)
        #expect(watcher.geometry(window)?.y == wibar + 15)
        #expect(try toast.wait().status == 0)
        withExtendedLifetime(bus) {}
    }

    /// Xfce's bottom launcher hides when windows cover it, so it reserves nothing; visible, it
    /// is in the way all the same: the default toast sits 15 px above it, not on its icons.
    @Test func xfcesLauncherWithoutAStrut() throws {
        let server = try PrivateXServer(width: 3840, height: 1080)
        try runTool("xrandr", ["--setmonitor", "L", "1920/508x1080/286+0+0", "screen"], display: server.name)
        try runTool("xrandr", ["--setmonitor", "R", "1920/508x1080/286+1920+0", "none"], display: server.name)
        let watcher = try XWatcher(display: server.name)
        let bus = try PrivateBus(display: server.name)
        let environment: [String: String?] = [
            "DISPLAY": server.name, "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_CONFIG_HOME": temporaryPath("-xfce-config"),
        ]
        let xfconfd = try Child(["/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"], environment: environment)
        defer { xfconfd.stop() }
        let panel = try Child(["xfce4-panel"], environment: environment)
        defer { panel.stop() }
        let dock = watcher.atom("_NET_WM_WINDOW_TYPE_DOCK")
        let launcher = try watcher.waitFor("the launcher, a dock without a strut", timeout: 20) { () -> Int? in
            watcher.stackingOrder().compactMap { window -> Int? in
                guard watcher.longs(window, "_NET_WM_WINDOW_TYPE", type: Atom(XA_ATOM), limit: 4).contains(UInt(dock)),
                    watcher.longs(window, "_NET_WM_STRUT_PARTIAL", type: Atom(XA_CARDINAL), limit: 12).isEmpty,
                    let a = watcher.attributes(window), a.map_state == IsViewable, a.y > 900, a.x < 1920
                else { return nil }
                return Int(a.y)
            }.first
        }
        try runTool("xdotool", ["mousemove", "2500", "300"], display: server.name)
        let toast = try XToastProcess(["--monitor", "L", "--duration", "0.3", "Above the launcher"], display: server.name)
        let window = try #require(try watcher.waitForToasts().first)
        let frame = try #require(watcher.geometry(window))
        #expect(frame.y + frame.height == launcher - 15, "\(frame), the launcher at \(launcher)")
        #expect(try toast.wait().status == 0)
        withExtendedLifetime(bus) {}
    }
}
