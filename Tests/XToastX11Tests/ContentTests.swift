import CX11
import Foundation
import Testing

/// What a toast can hold and how it moves, on a real server.
extension OnScreen {
    @Suite struct Content {
        @Test func aQuickSuccessfulRunShowsNoToast() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let result = try XToastProcess.run(["--run", "--", "sleep", "0.1"], display: display)
            #expect(result.status == 0)
            // Nothing was mapped: the command ended within the grace time.
            var mapped = false
            while let event = watcher.nextEvent(timeout: 0.3) {
                if event.type == MapNotify, watcher.isToast(event.xmap.window) { mapped = true }
            }
            #expect(!mapped)
        }

        @Test func aFailingRunExitsWithItsStatusAndShowsTheErrorIcon() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let toast = try XToastProcess(["--run", "--monitor", "L", "--fade-in", "0", "--", "false"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            try watcher.waitForShown(pid: toast.child.pid)
            // The red disc of the error icon, at the left of the box: the first frame is the whole
            // toast, which the compositor shows a frame or so after xtoast says it is out.
            _ = try waitForValue("error-red pixels on the toast's middle row") { () throws -> Int? in
                let shot = try Screenshot(display: display)
                let red = (frame.x..<(frame.x + frame.width / 3)).filter { x in
                    let p = shot.pixel(x, frame.y + frame.height / 2)
                    return p.r > 180 && p.g < 90 && p.b < 90
                }
                return red.count > 5 ? red.count : nil
            }
            #expect(try toast.wait().status == 1)
        }

        @Test func aLongRunShowsASpinnerThenTheResultAndPassesTheStatusOn() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let toast = try XToastProcess(["--run", "Working", "--", "sh", "-c", "sleep 1; exit 3"], display: display)
            let first = try #require(try watcher.waitForToasts().first)
            // The result replaces the spinner toast: a second window, drawn over the first.
            let second = try #require(try watcher.waitForToasts(timeout: 5).first)
            #expect(second != first)
            try watcher.waitForDestroy(first)
            #expect(try toast.wait().status == 3)
        }

        @Test func standardInputUpdatesTheToastUntilItEnds() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let toast = try XToastProcess(
                ["--stdin", "--duration", "0.5", "--print-outcome"], display: display, stdin: Data("Volume\n40\n".utf8))
            _ = try watcher.waitForToasts()
            let result = try toast.wait()
            #expect(result.status == 0)
            #expect(result.stdout == "expired\n")
            let empty = try XToastProcess.run(["--stdin"], display: display, stdin: Data("\n\n".utf8))
            #expect(empty.status == 64)
        }

        @Test func aMissingOrBrokenIconIsOneClearError() throws {
            let empty = temporaryPath(".png")
            FileManager.default.createFile(atPath: empty, contents: Data())
            let text = temporaryPath(".png")
            FileManager.default.createFile(atPath: text, contents: Data("not an image".utf8))
            defer {
                try? FileManager.default.removeItem(atPath: empty)
                try? FileManager.default.removeItem(atPath: text)
            }
            for path in ["/nonexistent/icon.png", empty, text] {
                let result = try XToastProcess.run(["--icon", path, "--render-png", temporaryPath(".png"), "Hello"], display: nil)
                #expect(result.status == 1)
                #expect(result.stderr.hasPrefix("xtoast: cannot read icon \"\(path)\""), "\(result.stderr)")
            }
        }
    }
}

extension OnScreen.Content {
    /// A desktop's "reduce motion" (XSETTINGS Net/EnableAnimations = 0) turns fades off.
    @Test func reducedMotionFromXSettingsSkipsTheFade() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        try server.startCompositor(watcher: watcher)
        // A settings manager: a window with the settings, owning _XSETTINGS_S0.
        let name = Array("Net/EnableAnimations".utf8)
        var settings: [UInt8] = [0, 0, 0, 0] + [0, 0, 0, 0] + [1, 0, 0, 0]
        settings += [0, 0, UInt8(name.count), 0] + name + [0, 0, 0, 0] + [0, 0, 0, 0]
        let manager = XCreateSimpleWindow(watcher.display, watcher.root, 0, 0, 1, 1, 0, 0, 0)
        let property = watcher.atom("_XSETTINGS_SETTINGS")
        XChangeProperty(watcher.display, manager, property, property, 8, PropModeReplace, settings, Int32(settings.count))
        XSetSelectionOwner(watcher.display, watcher.atom("_XSETTINGS_S0"), manager, UInt(CurrentTime))
        XSync(watcher.display, 0)

        let toast = try XToastProcess(["--fade-in", "5", "--duration", "sticky", "--position", "center", "Still"], display: server.name)
        let window = try #require(try watcher.waitForToasts().first)
        let frame = try #require(watcher.geometry(window))
        // The first frame the compositor shows is already the whole toast, not a faint one.
        var blue = backgroundColour.b
        let deadline = Date().addingTimeInterval(3)
        while blue > backgroundColour.b - 5 && Date() < deadline {
            blue = try Screenshot(display: server.name).pixel(frame.x + 3, frame.y + frame.height / 2).b
        }
        #expect(blue <= 40, "blue \(blue): the toast is fading in")
        toast.signal(SIGUSR1)
        #expect(try toast.wait().status == 0)
    }
}

extension OnScreen.Content {
    /// `--icon NAME` finds PNG icons in the icon theme: the user's (from XSETTINGS) first, then hicolor.
    @Test func iconNamesAreLookedUpInTheUsersThemeAndHicolor() throws {
        let data = temporaryPath("-data")
        defer { try? FileManager.default.removeItem(atPath: data) }
        for (theme, name) in [("hicolor", "xtoast-test-hicolor"), ("MyTheme", "xtoast-test-mine")] {
            let folder = "\(data)/icons/\(theme)/48x48/apps"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Any PNG will do: xtoast draws one.
            #expect(try XToastProcess.run(["--render-png", "\(folder)/\(name).png", "icon"], display: nil).status == 0)
        }
        let environment: [String: String?] = ["XDG_DATA_HOME": data]
        let server = try PrivateXServer()
        func run(_ icon: String) throws -> XToastProcess.Result {
            try XToastProcess(["--icon", icon, "--duration", "0", "Icon"], display: server.name, environment: environment).wait()
        }
        #expect(try run("xtoast-test-hicolor").status == 0)
        let missing = try run("xtoast-test-mine")
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("xtoast: no icon named \"xtoast-test-mine\""))

        // A desktop whose theme is MyTheme.
        let watcher = try XWatcher(display: server.name)
        let key = Array("Net/IconThemeName".utf8)
        let value = Array("MyTheme".utf8)
        var settings: [UInt8] = [0, 0, 0, 0] + [0, 0, 0, 0] + [1, 0, 0, 0]
        settings += [1, 0, UInt8(key.count), 0] + key + [0, 0, 0] + [0, 0, 0, 0]
        settings += [UInt8(value.count), 0, 0, 0] + value + [0]
        let manager = XCreateSimpleWindow(watcher.display, watcher.root, 0, 0, 1, 1, 0, 0, 0)
        let property = watcher.atom("_XSETTINGS_SETTINGS")
        XChangeProperty(watcher.display, manager, property, property, 8, PropModeReplace, settings, Int32(settings.count))
        XSetSelectionOwner(watcher.display, watcher.atom("_XSETTINGS_S0"), manager, UInt(CurrentTime))
        XSync(watcher.display, 0)
        #expect(try run("xtoast-test-mine").status == 0)
    }
}

extension OnScreen.Content {
    /// `--icon audio-volume-high-symbolic` is an SVG in Adwaita (adwaita-icon-theme, a test
    /// dependency): drawn through librsvg, in the text colour, on a real server.
    @Test func aSymbolicSVGIconFromAdwaitaShowsInTheTextColour() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let toast = try XToastProcess(
            ["--icon", "audio-volume-high-symbolic", "--foreground", "#00ff00", "--duration", "sticky", "Volume"],
            display: server.name, environment: ["XDG_DATA_DIRS": "/usr/share", "XDG_DATA_HOME": temporaryPath("-none")])
        let window = try #require(try watcher.waitForToasts().first)
        let frame = try #require(watcher.geometry(window))
        // No compositor: the first frame is the whole toast, on screen once xtoast says it is out.
        try watcher.waitForShown(pid: toast.child.pid)
        let shot = try Screenshot(display: server.name)
        var green = 0
        for y in frame.y..<(frame.y + frame.height) {
            // The icon only: it ends 30 px in, where the gap before the (also green) text begins.
            for x in frame.x..<(frame.x + 32) {
                let p = shot.pixel(x, y)
                if p.g > 200 && p.r < 40 && p.b < 40 { green += 1 }
            }
        }
        #expect(green > 40, "\(green) green pixels where the icon is")
        toast.signal(SIGUSR1)
        #expect(try toast.wait().status == 0)
    }
}
