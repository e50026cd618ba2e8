import CX11
import Foundation
import Testing
import XToastCore
import XToastX11

/// The left and right monitors the tests make of a 3840×1080 screen.
private let left = Rect(x: 0, y: 0, width: 1920, height: 1080)
private let right = Rect(x: 1920, y: 0, width: 1920, height: 1080)

extension OnScreen {
    /// The X side of issue #14's manners, read through XToastX11's own types on private servers:
    /// a fullscreen window under a real window manager on one of two monitors, and the idle time.
    @Suite struct Manners {
        /// i3 on two monitors: a window made fullscreen (the EWMH request any player sends)
        /// covers the left monitor only; the watch's events say so as it enters and leaves.
        @Test func aFullscreenWindowUnderI3CoversItsMonitorOnly() throws {
            try withI3OnTwoMonitors { server, watcher, display, watch in
                #expect(watch.covered([left, right]) == [false, false], "nothing is open yet")

                let player = try TestClient(display: server.name)
                let placed = try watcher.waitFor("the player managed on the left", timeout: 10) { () -> [Bool]? in
                    let covered = watch.covered([left, right])
                    return watch.last.stacking.contains(where: { $0.id == UInt32(player.id) && !$0.isHidden }) ? covered : nil
                }
                #expect(placed == [false, false], "a tiled window is not fullscreen")
                let frame = try #require(watch.last.stacking.first { $0.id == UInt32(player.id) }?.frame)
                #expect(left.contains(frame), "the player is at \(frame)")
                _ = watch.covered([left, right], watching: 0)

                player.requestFullscreen(true)
                try waitForChange(watch, display)
                let entered = try watcher.waitFor("the left monitor covered", timeout: 5) { () -> [Bool]? in
                    let covered = watch.covered([left, right])
                    return covered[0] ? covered : nil
                }
                #expect(entered == [true, false])
                #expect(watch.last.stacking.first { $0.id == UInt32(player.id) }?.frame == left)
                #expect(watch.last.active?.id == UInt32(player.id))

                _ = watch.covered([left, right], watching: 0)
                player.requestFullscreen(false)
                try waitForChange(watch, display)
                let uncovered = try watcher.waitFor("the left monitor uncovered", timeout: 5) { () -> [Bool]? in
                    let covered = watch.covered([left, right])
                    return covered[0] ? nil : covered
                }
                #expect(uncovered == [false, false])

                // A second player on the right monitor: fullscreen there covers the right only.
                try runTool("xdotool", ["mousemove", "2500", "500"], display: server.name)
                let second = try TestClient(display: server.name)
                _ = try watcher.waitFor("the second player managed on the right", timeout: 10) { () -> Bool? in
                    _ = watch.covered([left, right], watching: 0)
                    let frame = watch.last.stacking.first { $0.id == UInt32(second.id) && !$0.isHidden }?.frame
                    return frame.map { right.contains($0) } == true ? true : nil
                }
                second.requestFullscreen(true)
                try waitForChange(watch, display)
                let rightOnly = try watcher.waitFor("the right monitor covered", timeout: 5) { () -> [Bool]? in
                    let covered = watch.covered([left, right], watching: 0)
                    return covered[1] ? covered : nil
                }
                #expect(rightOnly == [false, true])
                withExtendedLifetime(player) {}
            }
        }

        /// The policies end to end, under i3 with a player fullscreen on the left of two
        /// monitors: `drop` there ends at once without a window, a toast for the right shows,
        /// a `--progress` OSD (auto: show) shows over the film, and `delay` waits until the
        /// player leaves fullscreen, then shows.
        @Test func fullscreenPoliciesUnderI3() throws {
            try withI3OnTwoMonitors { server, watcher, display, watch in
                let player = try TestClient(display: server.name)
                _ = try watcher.waitFor("the player managed", timeout: 10) { () -> Bool? in
                    _ = watch.covered([left, right])
                    return watch.last.stacking.contains(where: { $0.id == UInt32(player.id) && !$0.isHidden }) ? true : nil
                }
                player.requestFullscreen(true)
                _ = try watcher.waitFor("the left monitor covered", timeout: 5) { watch.covered([left, right])[0] ? true : nil }
                let quick = ["--fade-in", "0", "--fade-out", "0", "--duration", "0.3", "--print-outcome"]

                let dropped = try XToastProcess.run(quick + ["--monitor", "0", "--fullscreen", "drop", "Dropped"], display: server.name)
                #expect(dropped.stdout == "dropped\n")
                #expect(dropped.status == 0)
                #expect(watcher.mappedToasts().isEmpty)

                let onRight = try XToastProcess(quick + ["--monitor", "1", "--fullscreen", "delay", "Right"], display: server.name)
                let rightWindow = try #require(try watcher.waitForToasts().first)
                #expect(try #require(watcher.geometry(rightWindow)).x >= 1920)
                #expect(try onRight.wait().stdout == "expired\n")

                let osd = try XToastProcess(quick + ["--monitor", "0", "--progress", "40", "Volume"], display: server.name)
                let osdWindow = try #require(try watcher.waitForToasts().first)
                #expect(try #require(watcher.geometry(osdWindow)).x < 1920)
                #expect(try osd.wait().stdout == "expired\n")

                // It joins the queue, finds the film and stands aside in its place to wait for its end.
                let later = try XToastProcess(quick + ["--monitor", "0", "--fullscreen", "delay", "Later"], display: server.name)
                let laterTicket = try waitUntilAside(watcher, pid: later.child.pid)
                #expect(watcher.liveTickets("_XTOAST_QUEUE") == [UInt(laterTicket)], "the delayed toast keeps its place")
                // Nothing shows while the film plays. Absence has no event: half a second is many
                // times what a toast takes to show.
                let deadline = Date().addingTimeInterval(0.5)
                while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow), Date() < deadline {
                    #expect(!(event.type == MapNotify && watcher.isToast(event.xmap.window)), "a delayed toast showed over the film")
                }
                // It stands aside: a volume key's OSD started after it shows now.
                let volume = try XToastProcess(quick + ["--monitor", "0", "--progress", "50", "Volume"], display: server.name)
                let volumeWindow = try #require(try watcher.waitForToasts().first)
                try watcher.waitForDestroy(volumeWindow)
                #expect(try volume.wait().stdout == "expired\n")
                player.requestFullscreen(false)
                let shown = try #require(try watcher.waitForToasts().first)
                try watcher.waitForDestroy(shown)
                #expect(try later.wait().stdout == "expired\n")
                withExtendedLifetime(player) {}
            }
        }

        /// Issue #28: the player closed while its film is fullscreen (its window destroyed, as
        /// mpv does, unmapped first or not) ends the wait as leaving fullscreen does, with the
        /// focus on the other monitor.
        @Test(arguments: [false, true])
        func aDestroyedFilmUnderI3EndsTheWait(unmappedFirst: Bool) throws {
            try withI3OnTwoMonitors { server, watcher, display, watch in
                let player = try TestClient(display: server.name)
                _ = try watcher.waitFor("the player managed", timeout: 10) { () -> Bool? in
                    _ = watch.covered([left, right])
                    return watch.last.stacking.contains(where: { $0.id == UInt32(player.id) && !$0.isHidden }) ? true : nil
                }
                player.requestFullscreen(true)
                _ = try watcher.waitFor("the left monitor covered", timeout: 5) { watch.covered([left, right])[0] ? true : nil }
                try runTool("xdotool", ["mousemove", "2500", "500"], display: server.name)
                let terminal = try TestClient(display: server.name, name: "terminal")
                _ = try watcher.waitFor("the terminal active", timeout: 5) { () -> Bool? in
                    let active = watcher.longs(watcher.root, "_NET_ACTIVE_WINDOW", type: Atom(XA_WINDOW), limit: 1).first
                    return active == UInt(terminal.id) ? true : nil
                }
                let quick = ["--fade-in", "0", "--fade-out", "0", "--duration", "0.3", "--print-outcome"]
                let later = try XToastProcess(quick + ["--monitor", "0", "After the film"], display: server.name)
                try waitUntilAside(watcher, pid: later.child.pid)
                try expectNoToastMapped(watcher, for: 0.5)
                player.destroy(unmappedFirst: unmappedFirst)
                let shown = try #require(try watcher.waitForToasts().first)
                #expect(try #require(watcher.geometry(shown)).x < 1920)
                #expect(try later.wait().stdout == "expired\n")
                withExtendedLifetime(terminal) {}
            }
        }

        /// Without a window manager nothing says which window is on top: a screen-sized window
        /// that calls itself fullscreen delays no toast, before its end or after it.
        @Test func withoutAWindowManagerAFilmDelaysNothing() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let film = try TestClient(display: server.name, name: "film")
            film.setState([UInt(watcher.atom("_NET_WM_STATE_FULLSCREEN"))], format: 32)
            XMoveResizeWindow(film.display, film.id, 0, 0, 1920, 1080)
            XSync(film.display, 0)
            let quick = ["--fade-in", "0", "--fade-out", "0", "--duration", "0.3", "--print-outcome"]
            func showsAtOnce() throws {
                let toast = try XToastProcess(quick + ["Over the film"], display: server.name)
                try watcher.waitForDestroy(try #require(try watcher.waitForToasts().first))
                #expect(try toast.wait().stdout == "expired\n")
            }
            try showsAtOnce()
            film.destroy()
            try showsAtOnce()
        }

        /// Twenty toasts delayed by a film come back in their start order when it ends, as twenty
        /// never delayed would show; one delayed is reached by `--dismiss-all`.
        @Test func delayedToastsComeBackInOrder() throws {
            try withI3OnTwoMonitors { server, watcher, display, watch in
                let player = try TestClient(display: server.name)
                _ = try watcher.waitFor("the player managed", timeout: 10) { () -> Bool? in
                    _ = watch.covered([left, right])
                    return watch.last.stacking.contains(where: { $0.id == UInt32(player.id) && !$0.isHidden }) ? true : nil
                }
                player.requestFullscreen(true)
                _ = try watcher.waitFor("the left monitor covered", timeout: 5) { watch.covered([left, right])[0] ? true : nil }
                let quick = ["--fade-in", "0", "--fade-out", "0", "--duration", "0.05", "--print-outcome", "--monitor", "0"]
                // Replayed, not summarised: the order is what is looked at.
                let (environment, folder) = try replayingAfterQuiet()
                defer { try? FileManager.default.removeItem(atPath: folder) }
                // Each one aside before the next starts: the start order is known.
                var toasts: [XToastProcess] = []
                for number in 0..<20 {
                    let toast = try XToastProcess(
                        quick + ["--fullscreen", "delay", "Delayed \(number)"], display: server.name, environment: environment)
                    try waitUntilAside(watcher, pid: toast.child.pid)
                    toasts.append(toast)
                }
                #expect(watcher.mappedToasts().isEmpty)
                player.requestFullscreen(false)
                let events = try watcher.recordToasts(timeout: 60) { $0.filter { !$0.mapped }.count == 20 }
                let order = events.filter(\.mapped).map(\.pid)
                let started = toasts.map(\.child.pid)
                let neighbours = zip(order, order.dropFirst()).filter { pair in
                    (started.firstIndex(of: pair.0) ?? 0) > (started.firstIndex(of: pair.1) ?? 0)
                }
                #expect(order == started, "\(neighbours.count) of 19 neighbours out of order")
                for toast in toasts { #expect(try toast.wait().stdout == "expired\n") }

                // --dismiss-all reaches a toast that waits for a film.
                player.requestFullscreen(true)
                _ = try watcher.waitFor("the left monitor covered", timeout: 5) { watch.covered([left, right])[0] ? true : nil }
                let waiting = try XToastProcess(quick + ["--fullscreen", "delay", "Waiting"], display: server.name)
                try waitUntilAside(watcher, pid: waiting.child.pid)
                #expect(try XToastProcess.run(["--dismiss-all"], display: server.name).status == 0)
                let result = try waiting.wait(timeout: 5)
                #expect(result.stdout == "dismissed\n")
                #expect(result.status == 0)
                withExtendedLifetime(player) {}
            }
        }

        /// Nobody at the keyboard: a toast that appears after `--idle` seconds of no input stays
        /// past its time, and goes once input comes back (the rest of its hold, at least 1 s).
        @Test func aToastWaitsForAUserWhoIsAway() throws {
            let server = try PrivateXServer()
            try withExtendedLifetime(server) {
                let watcher = try XWatcher(display: server.name)
                let display = try openQuietly(server.name)
                let idle = IdleWatch(display: display)
                _ = try waitForValue("a second and a half of idleness", timeout: 5) { (idle.idleSeconds() ?? 0) >= 1.5 ? true : nil }
                let toast = try XToastProcess(
                    ["--idle", "1", "--fade-in", "0", "--fade-out", "0", "--duration", "0.2", "--print-outcome", "While you were away"],
                    display: server.name)
                let window = try #require(try watcher.waitForToasts().first)
                // Ten times its time, still there. Absence of a destroy has no event to wait for.
                #expect(throws: TestFailure.self) { try watcher.waitForDestroy(window, timeout: 2) }
                try runTool("xdotool", ["mousemove_relative", "--", "3", "3"], display: server.name)
                let gone = try watcher.waitForDestroy(window, timeout: 5)
                #expect(gone >= 0.9, "gone \(gone) s after the user came back")
                #expect(try toast.wait().stdout == "expired\n")
            }
        }

        /// Whatever other clients write where the watch reads, a snapshot comes back at once:
        /// lists of the wrong type, of dead windows, naming the root, states of the wrong format.
        @Test func hostileListsAndStatesNeitherBlockNorCover() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            // The connections close before the server stops (a lost connection ends the process).
            try withExtendedLifetime(server) {
                let display = try openQuietly(server.name)
                let watch = FullscreenWatch(display: display)
                let root = display.root
                let atoms = display.atoms
                let client = try TestClient(display: server.name)
                // Screen-sized and marked fullscreen, but in 8-bit format: garbage, not a state.
                XMoveResizeWindow(client.display, client.id, 0, 0, 3840, 1080)
                client.setState([UInt(atoms.wmStateFullscreen)], format: 8)
                XSync(client.display, 0)

                let cases: [(String, Atom, [UInt])] = [
                    ("the wrong type", Atom(XA_CARDINAL), [UInt(client.id)]),
                    ("10,000 dead windows and the root", Atom(XA_WINDOW), (0..<10_000).map { 0x7f00_0000 + UInt($0) } + [root]),
                    ("the client twice", Atom(XA_WINDOW), [UInt(client.id), UInt(client.id)]),
                ]
                for (what, type, list) in cases {
                    display.setListProperty(root, atoms.clientListStacking, type: type, list)
                    display.setListProperty(root, atoms.activeWindow, type: Atom(XA_WINDOW), [0xdead_beef])
                    let start = Date()
                    let covered = watch.covered([left, right])
                    #expect(Date().timeIntervalSince(start) < 2, "\(what): took \(Date().timeIntervalSince(start)) s")
                    // The client is as big as the screen and not maximised: counted as a game only
                    // when it is listed, and never through the root.
                    let listed = type == Atom(XA_WINDOW) && list.contains(UInt(client.id))
                    #expect(covered == [listed, listed], "\(what)")
                    #expect(watch.last.stacking.count == (listed ? 1 : 0), "\(what)")
                }
            }
        }

        /// The idle time grows while nothing happens and starts again at input; the return
        /// alarm (SYNC's IDLETIME) stays quiet while nobody moves, and fires once they do.
        @Test func idleTimeAndTheReturnAlarm() throws {
            let server = try PrivateXServer()
            // The connections close before the server stops (a lost connection ends the process).
            try withExtendedLifetime(server) {
                let display = try openQuietly(server.name)
                let idle = IdleWatch(display: display)
                let first = try #require(idle.idleSeconds(), "Xvfb has MIT-SCREEN-SAVER")
                let later = try waitForValue("a second of idleness", timeout: 5) { () -> Double? in
                    let now = idle.idleSeconds() ?? 0
                    return now >= first + 1 ? now : nil
                }
                #expect(later >= 1)
                #expect(idle.armReturn(), "Xvfb has SYNC's IDLETIME counter")
                #expect(try nextEvent(display, within: 0.5) { idle.handle($0) } == false, "the alarm fired with nobody there")

                try runTool("xdotool", ["mousemove", "300", "200"], display: server.name)
                #expect(try nextEvent(display, within: 5) { idle.handle($0) } == true, "no return after input")
                let after = try #require(idle.idleSeconds())
                #expect(after < later, "idle \(after) s after input, \(later) s before")

                // Disarmed once it fired: more input sends nothing until armed again.
                try runTool("xdotool", ["mousemove", "310", "210"], display: server.name)
                #expect(try nextEvent(display, within: 0.5) { idle.handle($0) } == false)
                _ = try waitForValue("idle again", timeout: 5) { (idle.idleSeconds() ?? 0) > 0.1 ? true : nil }
                #expect(idle.armReturn())
                try runTool("xdotool", ["mousemove", "320", "220"], display: server.name)
                #expect(try nextEvent(display, within: 5) { idle.handle($0) } == true, "no return after the second arming")
            }
        }
    }
}

/// A private 3840×1080 Xvfb cut into a left and a right monitor, with i3 managing it (new
/// windows go to the left, where the pointer is) and a fullscreen watch on its own connection.
/// The connections close before the server stops (a lost connection ends the process).
private func withI3OnTwoMonitors(_ body: (PrivateXServer, XWatcher, XDisplay, FullscreenWatch) throws -> Void) throws {
    let server = try PrivateXServer(width: 3840, height: 1080)
    try withExtendedLifetime(server) {
        try runTool("xrandr", ["--setmonitor", "L", "1920/508x1080/286+0+0", "screen"], display: server.name)
        try runTool("xrandr", ["--setmonitor", "R", "1920/508x1080/286+1920+0", "none"], display: server.name)
        let watcher = try XWatcher(display: server.name)
        // New windows go to the workspace of the monitor under the pointer.
        try runTool("xdotool", ["mousemove", "500", "500"], display: server.name)
        let (i3, _) = try server.startI3(watcher: watcher)
        defer { i3.stop() }
        let display = try openQuietly(server.name)
        try withExtendedLifetime(display) { try body(server, watcher, display, FullscreenWatch(display: display)) }
    }
}

/// Waits until xtoast process `pid` has stood aside for a fullscreen window or a locked screen
/// (its ticket marked `pause=aside`, in its place in the queue); returns its ticket.
@discardableResult
func waitUntilAside(_ watcher: XWatcher, pid: Int32) throws -> Window {
    try watcher.waitFor("process \(pid) standing aside", timeout: 10) { () -> Window? in
        guard let ticket = watcher.ticket(of: pid) else { return nil }
        return watcher.ticketText(UInt(ticket)).split(separator: "\n").contains("pause=aside") ? ticket : nil
    }
}

/// An `XDisplay` for a test: its watchdog (it ends the process after 5 s of the server's
/// silence, for a command that must never hang) is switched off, as a test waits for its own
/// conditions, and would end the whole test process.
private func openQuietly(_ name: String) throws -> XDisplay {
    let display = try XDisplay(name: name)
    display.stopWatchdog()
    return display
}

/// Waits for the watch to see an event that may change the answer.
private func waitForChange(_ watch: FullscreenWatch, _ display: XDisplay) throws {
    guard try nextEvent(display, within: 5, watch.affects) == true else {
        throw TestFailure("no event the fullscreen watch cares about within 5 s")
    }
}

/// Reads `display`'s events for up to `timeout` seconds until `check` is true for one: true
/// then, false when the time ran out.
private func nextEvent(_ display: XDisplay, within timeout: Double, _ check: (XEvent) -> Bool) throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        while XPending(display.pointer) > 0 {
            var event = XEvent()
            XNextEvent(display.pointer, &event)
            if check(event) { return true }
        }
        let left = deadline.timeIntervalSinceNow
        if left <= 0 { return false }
        var fd = pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, Int32(left * 1000) + 1)
    }
}

/// A plain application window, from a connection of its own, that asks the window manager for
/// fullscreen the way players do (a `_NET_WM_STATE` client message to the root).
final class TestClient {
    let display: OpaquePointer
    let id: Window

    init(display name: String, name title: String = "player") throws {
        guard let display = XOpenDisplay(name) else { throw TestFailure("cannot open display \(name)") }
        self.display = display
        let root = XDefaultRootWindow(display)
        id = XCreateSimpleWindow(display, root, 100, 100, 400, 300, 0, 0, 0)
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

    /// Destroys the window, as a player does when it is closed (mpv unmaps it first): its
    /// state is not changed first.
    func destroy(unmappedFirst: Bool = false) {
        if unmappedFirst { XUnmapWindow(display, id) }
        XDestroyWindow(display, id)
        XSync(display, 0)
    }

    /// Writes `_NET_WM_STATE` itself (format 8 is garbage any client may write).
    func setState(_ atoms: [UInt], format: Int32) {
        let property = XInternAtom(display, "_NET_WM_STATE", 0)
        if format == 32 {
            atoms.withUnsafeBytes { bytes in
                _ = XChangeProperty(
                    display, id, property, Atom(XA_ATOM), 32, PropModeReplace, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    Int32(atoms.count))
            }
        } else {
            let bytes = atoms.flatMap { withUnsafeBytes(of: UInt32(truncatingIfNeeded: $0)) { Array($0) } }
            _ = XChangeProperty(display, id, property, Atom(XA_ATOM), 8, PropModeReplace, bytes, Int32(bytes.count))
        }
    }
}
