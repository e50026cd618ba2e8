import CX11
import Foundation
import Testing

extension OnScreen {
    /// Issue #22: nothing shows over a locked or blanked screen; what waited shows after the
    /// unlock. Real i3lock (it needs no PAM to show; killing it unlocks) on private servers.
    @Suite struct Locked {
        /// A plain toast and an OSD started while i3lock is up: neither maps a window while it
        /// is (the screen is the locker's colour where they would be), both stand aside in their
        /// places, and both show, in turn, once i3lock is gone.
        @Test func nothingShowsOverI3lockAndWhatWaitedShowsAfter() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let locker = try startI3lock(on: server, watcher: watcher)
            watcher.watchRootProperties()
            let quick = ["--fade-in", "0", "--fade-out", "0", "--duration", "0.3", "--print-outcome"]
            let secret = try XToastProcess(quick + ["Secret text"], display: server.name)
            // It joins the queue, finds the lock and stands aside in its place to wait for its end.
            let secretTicket = try waitUntilAside(watcher, pid: secret.child.pid)
            #expect(watcher.liveTickets("_XTOAST_QUEUE") == [UInt(secretTicket)], "the toast waits in its place")
            let osd = try XToastProcess(quick + ["--progress", "40", "Volume"], display: server.name)
            try waitUntilAside(watcher, pid: osd.child.pid)
            // Absence has no event: half a second is many times what a toast takes to show.
            let deadline = Date().addingTimeInterval(0.5)
            while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow), Date() < deadline {
                #expect(!(event.type == MapNotify && watcher.isToast(event.xmap.window)), "a toast showed over the locker")
            }
            let shot = try Screenshot(display: server.name)
            #expect(shot.pixel(1920, 1080 - 15 - 19) == lockerColour, "the bottom centre is the locker's")

            locker.stop()
            let events = try watcher.recordToasts(timeout: 10) { $0.filter(\.mapped).count == 2 }
            #expect(Set(events.filter(\.mapped).map(\.pid)) == [secret.child.pid, osd.child.pid])
            #expect(try secret.wait().stdout == "expired\n")
            #expect(try osd.wait().stdout == "expired\n")
        }

        /// Issue #30: applications' notifications that waited for the unlock end as one
        /// summary, not a replay; the ones it stands for stay kept, unseen, for the centre.
        @Test func notificationsThatWaitedForTheUnlockEndAsOneSummary() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let bus = try PrivateBus(display: server.name)
            let locker = try startI3lock(on: server, watcher: watcher)
            try Self.notify(from: ["Signal", "Mail", "Slack", "News"], on: bus)
            // Four applications (one application's would join one toast, a burst): the service hands
            // them out one at a time, and each finds the lock and stands aside.
            try waitUntil("four notifications aside", timeout: 30) {
                watcher.queue().filter { watcher.ticketText($0).contains("pause=aside") }.count == 4
            }
            locker.stop()
            let summary = try #require(try watcher.waitForToasts().first)
            let list = { try bus.run(["env", "DISPLAY=\(server.name)", try xtoastBinary(), "--list"]) }
            let listed = try list()
            #expect(listed.contains("While you were away: 4") && listed.contains("Mail 1, News 1, Signal 1, Slack 1"), "\(listed)")
            #expect(watcher.mappedToasts() == [summary], "one toast, not a replay")
            // The three it told are kept at once, unseen; its own once the summary ends.
            try waitUntil("three kept", timeout: 20) { try list().split(separator: "\n").filter { $0.hasPrefix("kept") }.count == 3 }
        }

        /// A burst's toast ("Signal · 3 new") that waited for the unlock counts for each of its
        /// notifications in the summary, not once.
        @Test func aBurstThatWaitedForTheUnlockCountsForEachOfItsNotifications() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let bus = try PrivateBus(display: server.name)
            let locker = try startI3lock(on: server, watcher: watcher)
            try Self.notify(from: ["Signal", "Signal", "Signal", "Mail", "News"], on: bus)
            // Signal's three join one toast, which says so on its ticket.
            try waitUntil("three toasts aside, the burst's whole", timeout: 30) {
                let aside = watcher.queue().map { watcher.ticketText($0) }.filter { $0.contains("pause=aside") }
                return aside.count == 3 && aside.contains { $0.contains("away-count=3") } && !aside.contains { $0.contains("away-count=2") }
            }
            locker.stop()
            _ = try watcher.waitForToasts()
            let listed = try bus.run(["env", "DISPLAY=\(server.name)", try xtoastBinary(), "--list"])
            #expect(listed.contains("While you were away: 5") && listed.contains("Signal 3, Mail 1, News 1"), "\(listed)")
        }

        /// One notification from each of `apps`, in order, through python3-dbus.
        static func notify(from apps: [String], on bus: PrivateBus) throws {
            let list = apps.map { "\"\($0)\"" }.joined(separator: ", ")
            let sent = try bus.run([
                "/usr/bin/python3", "-c",
                """
                import dbus
                server = dbus.Interface(dbus.SessionBus().get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                        "org.freedesktop.Notifications")
                for n, app in enumerate([\(list)]): server.Notify(app, 0, "", "Message %d" % n, "", [], {}, -1)
                print("sent")
                """,
            ])
            #expect(sent == "sent\n")
        }

        /// A toast up when i3lock comes is withdrawn under it (unmapped, nothing of it over the
        /// locker), its time standing still: back after the unlock, then gone after the rest of
        /// its time (at least 1 s) and its fade.
        @Test func aToastUpWhenTheLockComesWaitsUnderIt() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let toast = try XToastProcess(
                ["--fade-in", "0", "--duration", "1", "--fade-out", "0.2", "--print-outcome", "Before the lock"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let locker = try startI3lock(on: server, watcher: watcher)
            #expect(watcher.survivesWithdrawn(window, for: 3), "it expired, or stayed mapped, under the locker")
            locker.stop()
            let unlocked = Date()
            try watcher.waitForDestroy(window)
            let after = Date().timeIntervalSince(unlocked)
            #expect(after >= 0.9 && after < 6, "gone \(after) s after the unlock")
            #expect(try toast.wait().stdout == "expired\n")
        }

        /// A reply entry open when the locker comes gives the keyboard back, so that the locker
        /// gets it (i3lock gives up when it cannot grab it): the locker holds the keyboard and
        /// runs, the toast is withdrawn under it, and what was typed is never sent.
        @Test func aReplyEntryGivesTheLockerTheKeyboard() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let toast = try XToastProcess(
                ["--duration", "sticky", "--print-outcome", "--reply", "Reply", "Lunch?"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            #expect(try XToastProcess.run(["--press", "Reply"], display: server.name).status == 0)
            try waitUntil("the entry takes the keyboard") { !OnScreen.Reply.keyboardIsFree(watcher) }
            _ = try runTool("xdotool", ["type", "half a"], display: server.name)
            let locker = try startI3lock(on: server, watcher: watcher)
            #expect(watcher.survivesWithdrawn(window, for: 1.5), "it stayed mapped under the locker")
            #expect(!OnScreen.Reply.keyboardIsFree(watcher), "nobody holds the keyboard")
            #expect(locker.wait(timeout: 0) == nil, "i3lock could not grab the keyboard and left")
            locker.stop()
            _ = try XToastProcess.run(["--dismiss"], display: server.name)
            #expect(try toast.wait().stdout == "dismissed\n")
        }

        /// Issue #28: a toast on screen when the lock comes is told something new under it (a
        /// `--stdin` line): nothing of it maps over the locker, the screen stays the locker's,
        /// and what it was told shows after the unlock.
        @Test func aLineReadUnderTheLockerShowsOnlyAfterTheUnlock() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let fifo = temporaryPath(".fifo")
            guard mkfifo(fifo, 0o600) == 0 else { throw TestFailure("cannot make a FIFO") }
            defer { unlink(fifo) }
            let toast = try XToastProcess(
                ["--stdin", "--fade-in", "0", "--fade-out", "0", "--duration", "1", "--print-outcome"], display: server.name,
                viaShell: "exec \"$0\" \"$@\" < \(fifo)")
            let writer = open(fifo, O_WRONLY)
            guard writer >= 0 else { throw TestFailure("cannot open the FIFO") }
            func say(_ line: String) { _ = (line + "\n").withCString { write(writer, $0, strlen($0)) } }
            say("first")
            let window = try #require(try watcher.waitForToasts().first)
            try watcher.waitForShown(pid: toast.child.pid)
            let locker = try startI3lock(on: server, watcher: watcher)
            // Withdrawn under it (waited for at most a few seconds, so that a toast that is not
            // withdrawn fails below, on what it maps over the locker).
            #expect((try? watcher.waitForUnmap(window, timeout: 3)) != nil, "still mapped under the locker")
            say("UPDATE SECRET")
            say("40")
            // Absence has no event: a second is many times what an update takes to show.
            let deadline = Date().addingTimeInterval(1)
            while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow), Date() < deadline {
                #expect(!(event.type == MapNotify && watcher.isToast(event.xmap.window)), "an update showed over the locker")
            }
            let shot = try Screenshot(display: server.name)
            #expect(shot.pixel(1920, 1080 - 15 - 19) == lockerColour, "the bottom centre is the locker's")
            locker.stop()
            let shown = try #require(try watcher.waitForToasts().first, "nothing came back after the unlock")
            #expect(shown == window || watcher.isToast(shown))
            close(writer)
            #expect(try toast.wait().stdout == "expired\n")
        }

        /// Issue #28: a `--run` command that ends while its toast is under the locker: its
        /// result maps nothing until the unlock.
        @Test func aCommandsResultUnderTheLockerWaitsForTheUnlock() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            let flag = temporaryPath(".done")
            // The command ends however the test does.
            defer {
                FileManager.default.createFile(atPath: flag, contents: nil)
                try? FileManager.default.removeItem(atPath: flag)
            }
            let toast = try XToastProcess(
                [
                    "--fade-in", "0", "--fade-out", "0", "--print-outcome", "--run", "Working", "--", "sh", "-c",
                    "while [ ! -e \(flag) ]; do sleep 0.05; done; exit 3",
                ],
                display: server.name)
            let window = try #require(try watcher.waitForToasts(timeout: 15).first)
            try watcher.waitForShown(pid: toast.child.pid)
            let locker = try startI3lock(on: server, watcher: watcher)
            // Withdrawn under it (waited for at most a few seconds, so that a toast that is not
            // withdrawn fails below, on what it maps over the locker).
            #expect((try? watcher.waitForUnmap(window, timeout: 3)) != nil, "still mapped under the locker")
            FileManager.default.createFile(atPath: flag, contents: nil)
            let deadline = Date().addingTimeInterval(1.5)
            while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow), Date() < deadline {
                #expect(!(event.type == MapNotify && watcher.isToast(event.xmap.window)), "the result showed over the locker")
            }
            locker.stop()
            _ = try watcher.waitForToasts()
            #expect(try toast.wait(timeout: 30).status == 3)
        }

        /// Issue #28: xsecurelock leaves only an "obscurer" a pixel in from the screen's edges at
        /// the top level and draws its lock in the Composite overlay window; it holds the
        /// keyboard and the pointer, which is what makes it a locker. With and without picom: a
        /// toast started under it waits aside and maps nothing, one up when it comes is
        /// withdrawn, and both show once it is gone.
        @Test(arguments: [false, true])
        func xsecurelockIsALocker(composited: Bool) throws {
            let server = try PrivateXServer(width: 1920, height: 1080)
            let watcher = try XWatcher(display: server.name)
            if composited { try server.startCompositor(watcher: watcher) }
            let before = try XToastProcess(
                ["--fade-in", "0", "--fade-out", "0", "--duration", "1", "--print-outcome", "Before the lock"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            try watcher.waitForShown(pid: before.child.pid)
            let locker = try Child(["xsecurelock"], environment: ["DISPLAY": server.name])
            defer { locker.stop(with: SIGKILL) }
            try watcher.waitFor("xsecurelock's obscurer", timeout: 10) { () -> Bool? in
                watcher.stackingOrder().contains { window in
                    guard let attributes = watcher.attributes(window) else { return false }
                    return attributes.override_redirect != 0 && attributes.map_state == IsViewable && attributes.width >= 1910
                } ? true : nil
            }
            #expect((try? watcher.waitForUnmap(window, timeout: 5)) != nil, "a toast stayed mapped over xsecurelock")
            // Urgent, behind the toast under the lock: it waits, and maps nothing.
            let secret = try XToastProcess(
                ["--preset", "critical", "--fade-in", "0", "--fade-out", "0", "--duration", "0.5", "--print-outcome", "SECRET"],
                display: server.name)
            try watcher.waitFor("the urgent toast's ticket", timeout: 10) { watcher.ticket(of: secret.child.pid) }
            let deadline = Date().addingTimeInterval(1)
            while let event = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow), Date() < deadline {
                #expect(!(event.type == MapNotify && watcher.isToast(event.xmap.window)), "a toast showed over xsecurelock")
            }
            locker.stop(with: SIGKILL)
            let events = try watcher.recordToasts(timeout: 15) { $0.contains { $0.pid == secret.child.pid && $0.mapped } }
            #expect(events.contains { $0.pid == secret.child.pid })
            #expect(try before.wait().stdout == "expired\n")
            #expect(try secret.wait().stdout == "expired\n")
        }

        /// Issue #28, the opposite mistake: a transparent override-redirect window over the whole
        /// screen (what key-cast and annotation tools map) with nobody holding the input is no
        /// locker; nor is it one while a key is held (the keyboard alone grabbed, as a window
        /// manager's key binding holds it). With both grabs it is, until whoever held them lets
        /// go and its window (a menu) goes.
        @Test func anOverlayIsNoLockerUnlessTheInputIsHeld() throws {
            let server = try PrivateXServer(width: 1920, height: 1080)
            let watcher = try XWatcher(display: server.name)
            var attributes = XSetWindowAttributes()
            attributes.override_redirect = 1
            let overlay = XCreateWindow(
                watcher.display, watcher.root, 0, 0, 1920, 1080, 0, Int32(CopyFromParent), UInt32(InputOutput), nil,
                UInt(CWOverrideRedirect), &attributes)
            XMapWindow(watcher.display, overlay)
            XSync(watcher.display, 0)
            let quick = ["--fade-in", "0", "--fade-out", "0", "--duration", "0.3", "--print-outcome"]
            let free = try XToastProcess(quick + ["Over the overlay"], display: server.name)
            // A toast that never showed here failed 1 run in 20 before a watched change expired the
            // view (664e008): a failure says which one, and what the queue held then.
            func waitForToast(_ toast: XToastProcess, _ name: String) throws {
                do { _ = try watcher.waitForToasts() } catch {
                    let list = try XToastProcess.run(["--list"], display: server.name)
                    toast.signal(SIGTERM)
                    let ended = try toast.wait()
                    throw TestFailure("\(error) (\(name); --list: \(list.stdout + list.stderr), then \(ended.status) \(ended.stderr))")
                }
            }
            try waitForToast(free, "over the overlay")
            #expect(try free.wait().stdout == "expired\n")

            // A key held down: the keyboard grabbed, the pointer free.
            let holder = try #require(XOpenDisplay(server.name))
            defer { XCloseDisplay(holder) }
            let holderRoot = XDefaultRootWindow(holder)
            #expect(XGrabKeyboard(holder, holderRoot, 0, GrabModeAsync, GrabModeAsync, UInt(CurrentTime)) == GrabSuccess)
            let keyHeld = try XToastProcess(quick + ["A key held"], display: server.name)
            try waitForToast(keyHeld, "a key held")
            #expect(try keyHeld.wait().stdout == "expired\n")

            // Both held, by a client with a small window of its own (a menu over the overlay).
            let menu = XCreateWindow(
                holder, holderRoot, 100, 100, 200, 300, 0, Int32(CopyFromParent), UInt32(InputOutput), nil, UInt(CWOverrideRedirect),
                &attributes)
            XMapWindow(holder, menu)
            #expect(
                XGrabPointer(holder, holderRoot, 0, UInt32(ButtonPressMask), GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
                    == GrabSuccess)
            watcher.watchRootProperties()
            let held = try XToastProcess(quick + ["Input held"], display: server.name)
            try waitUntilAside(watcher, pid: held.child.pid)
            #expect(watcher.mappedToasts().isEmpty)
            // The menu goes and lets go: the toast looks again and shows.
            XUngrabPointer(holder, UInt(CurrentTime))
            XUngrabKeyboard(holder, UInt(CurrentTime))
            XUnmapWindow(holder, menu)
            XSync(holder, 0)
            try waitForToast(held, "after the input was let go")
            #expect(try held.wait().stdout == "expired\n")
        }

        /// The server's own screen saver on (blanked): a toast waits until it is off.
        @Test func aBlankedScreenHoldsTheToastUntilTheSaverGoes() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            try runTool("xset", ["s", "600", "600"], display: server.name)
            try runTool("xset", ["s", "activate"], display: server.name)
            watcher.watchRootProperties()
            let toast = try XToastProcess(["--duration", "0.3", "--print-outcome", "Blanked"], display: server.name)
            try waitUntilAside(watcher, pid: toast.child.pid)
            #expect(watcher.mappedToasts().isEmpty)
            try runTool("xset", ["s", "reset"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            try watcher.waitForDestroy(window)
            #expect(try toast.wait().stdout == "expired\n")
        }

        /// The screen saver coming on while a toast is up hides it as a locker does: its time
        /// stands still while the screen is blank, then the rest of it (at least 1 s) and its fade.
        @Test func aToastUpWhenTheSaverComesWaitsUnderIt() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            try runTool("xset", ["s", "600", "600"], display: server.name)
            let toast = try XToastProcess(
                ["--fade-in", "0", "--duration", "1", "--fade-out", "0.2", "--print-outcome", "Before the blank"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            // Said once the toast listens to the screen saver (it asks before it says).
            try watcher.waitForShown(pid: toast.child.pid)
            try runTool("xset", ["s", "activate"], display: server.name)
            #expect(watcher.survivesWithdrawn(window, for: 3), "it expired, or stayed mapped, under the blank screen")
            try runTool("xset", ["s", "reset"], display: server.name)
            let unblanked = Date()
            try watcher.waitForDestroy(window)
            let after = Date().timeIntervalSince(unblanked)
            #expect(after >= 0.9 && after < 6, "gone \(after) s after the screen saver went")
            #expect(try toast.wait().stdout == "expired\n")
        }

        /// Override-redirect windows that are no locker: an InputOnly one over the screen, and a
        /// strip (a menu) do not hold a toast.
        @Test func inputOnlyAndSmallOverrideRedirectWindowsDoNotLock() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            var attributes = XSetWindowAttributes()
            attributes.override_redirect = 1
            let catcher = XCreateWindow(
                watcher.display, watcher.root, 0, 0, 3840, 1080, 0, 0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect), &attributes)
            let menu = XCreateWindow(
                watcher.display, watcher.root, 0, 0, 3840, 30, 0, Int32(CopyFromParent), UInt32(InputOutput), nil, UInt(CWOverrideRedirect),
                &attributes)
            XMapWindow(watcher.display, catcher)
            XMapWindow(watcher.display, menu)
            XSync(watcher.display, 0)
            let toast = try XToastProcess(["--duration", "0.3", "--print-outcome", "Not locked"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            try watcher.waitForDestroy(window)
            #expect(try toast.wait().stdout == "expired\n")
        }

        /// An override-redirect window over the screen with an ordinary window over it is a
        /// background (an animated wallpaper), not a locker: the toast shows.
        @Test func aBackgroundUnderAnOrdinaryWindowIsNoLocker() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            let watcher = try XWatcher(display: server.name)
            var attributes = XSetWindowAttributes()
            attributes.override_redirect = 1
            let wallpaper = XCreateWindow(
                watcher.display, watcher.root, 0, 0, 3840, 1080, 0, Int32(CopyFromParent), UInt32(InputOutput), nil,
                UInt(CWOverrideRedirect), &attributes)
            XMapWindow(watcher.display, wallpaper)
            _ = watcher.mapPlainWindow((100, 100, 400, 300))
            XSync(watcher.display, 0)
            let toast = try XToastProcess(["--duration", "0.3", "--print-outcome", "Over the wallpaper"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            try watcher.waitForDestroy(window)
            #expect(try toast.wait().stdout == "expired\n")
        }
    }
}

/// i3lock's colour in these tests (`-c`).
private let lockerColour = (r: 0x80, g: 0x20, b: 0x20)

/// Starts i3lock (`-n`: in the foreground) and returns once its window covers the screen.
private func startI3lock(on server: PrivateXServer, watcher: XWatcher) throws -> Child {
    let locker = try Child(["i3lock", "-n", "-c", "802020"], environment: ["DISPLAY": server.name])
    _ = try watcher.waitFor("i3lock's window over the screen", timeout: 10) { () -> Bool? in
        watcher.stackingOrder().contains { window in
            guard let attributes = watcher.attributes(window) else { return false }
            return attributes.override_redirect != 0 && attributes.map_state == IsViewable && attributes.width == 3840
        } ? true : nil
    }
    return locker
}
