import CX11
import Foundation
import Testing

/// How far from the box a shadow may darken the screen: picom's default (radius 12, offset −15)
/// fades out 17 px right of and below it; the alert's own (radius 8, offset 0,4) 20 px below.
private let shadowReach = 20
/// Blue levels a pixel may differ from the background and still count as background.
private let backgroundTolerance = 3

extension OnScreen {
    /// Toasts on the desktops users run: a tiling window manager with its bar, compositors with
    /// shadows and fades of their own. Each starts its own server and programs.
    @Suite struct OnRealDesktops {
        /// i3 with its bar on the left monitor only: toasts there sit 15 px above the bar, toasts
        /// on the right monitor at the screen's edge; a bar coming or going moves a toast on screen.
        @Test func i3sBarLiftsToastsOnItsOwnMonitor() throws {
            let server = try PrivateXServer(width: 3840, height: 1080)
            try runTool("xrandr", ["--setmonitor", "L", "1920/508x1080/286+0+0", "screen"], display: server.name)
            try runTool("xrandr", ["--setmonitor", "R", "1920/508x1080/286+1920+0", "none"], display: server.name)
            let watcher = try XWatcher(display: server.name)

            let before = try XToastProcess(["--monitor", "L", "--duration", "sticky", "Before the bar"], display: server.name)
            let early = try #require(try watcher.waitForToasts().first)
            let height = try #require(watcher.geometry(early)?.height)
            #expect(watcher.geometry(early)?.y == 1080 - 15 - height)

            let (i3, bar) = try server.startI3(watcher: watcher, barOutput: "L")
            #expect(bar > 0 && bar < 100, "bar \(bar) px")
            // The bar appearing moves the toast already on screen.
            _ = try watcher.waitForMove(early) { $0.y == 1080 - bar - 15 - height }
            before.signal(SIGUSR1)
            #expect(try before.wait().status == 0)

            for (monitor, bottom) in [("L", 1080 - bar), ("R", 1080)] {
                let toast = try XToastProcess(["--monitor", monitor, "--duration", "0", "Above the bar"], display: server.name)
                let window = try #require(try watcher.waitForToasts().first)
                let frame = try #require(watcher.geometry(window))
                #expect(frame.y + frame.height == bottom - 15, "on \(monitor): \(frame)")
                #expect(try toast.wait().status == 0)
            }

            // The bar going moves it back down.
            let after = try XToastProcess(
                ["--monitor", "L", "--duration", "sticky", "--offset", "0,-10", "Bar going"], display: server.name)
            let late = try #require(try watcher.waitForToasts().first)
            #expect(watcher.geometry(late)?.y == 1080 - bar - 15 - height - 10, "--offset counts from the work area")
            i3.stop()
            _ = try watcher.waitForMove(late) { $0.y == 1080 - 15 - height - 10 }
            after.signal(SIGUSR1)
            #expect(try after.wait().status == 0)
        }

        /// picom with shadows and fading (`-c -f`): for each design the shadow hugs the box,
        /// fades with it, and nothing is left once the toast has gone.
        @Test func picomsShadowIsTheBoxsAndGoesWithIt() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let picom = try server.startCompositor(["picom", "--backend", "xrender", "-c", "-f"], watcher: watcher)
            defer { picom.stop() }
            for preset in ["toast", "alert", "hud"] {
                let toast = try XToastProcess(["--preset", preset, "--duration", "1", "Saved"], display: server.name)
                let window = try #require(try watcher.waitForToasts().first)
                // Settled: the same picture twice in a row.
                let shot = try watcher.waitFor("\(preset) settled", timeout: 5) {
                    () -> (Screenshot, (x: Int, y: Int, width: Int, height: Int))? in
                    guard let frame = watcher.geometry(window) else { return nil }
                    let a = try Screenshot(display: server.name)
                    let b = try Screenshot(display: server.name)
                    let area = grown(frame, by: 40)
                    let same =
                        a.changedPixels(in: area, outside: nil, tolerance: 0).map(\.b)
                        == b.changedPixels(in: area, outside: nil, tolerance: 0).map(\.b)
                    return same && !a.changedPixels(in: area, outside: nil, tolerance: 10).isEmpty ? (b, frame) : nil
                }
                let picture = shot.0
                // The alert keeps room for its own shadow around the box (picom adds none to it).
                let box = try #require(watcher.clickableBox(window))
                if preset != "alert" { #expect(box == shot.1, "\(preset): the window \(shot.1) is not its box \(box)") }
                let shadowSpot = (box.x + box.width / 2, box.y + box.height + 2)
                let boxSpot = (box.x + 3, box.y + box.height / 2)

                let reach = shadowReach
                let stray = picture.changedPixels(in: grown(box, by: 80), outside: grown(box, by: reach), tolerance: backgroundTolerance)
                #expect(
                    stray.isEmpty,
                    "\(preset): \(stray.count) shadow pixels farther than \(reach) px from the box \(box), first \(stray.prefix(3))")
                // There is a shadow, just below the box.
                let below = picture.pixel(shadowSpot.0, shadowSpot.1)
                #expect(below.b < backgroundColour.b - 10, "\(preset): no shadow below the box (blue \(below.b))")
                if preset != "alert" {
                    #expect(watcher.topRowInset(window) > 0, "\(preset): the window is not cut to the box's rounded outline")
                }

                // The shadow goes with the box: after we are gone picom may still finish its own
                // fade (`-f`) of a faint toast, never of a shadow around an empty box.
                func darkness(_ shot: Screenshot, _ spot: (Int, Int)) -> Double {
                    Double(backgroundColour.b - shot.pixel(spot.0, spot.1).b)
                }
                let shown = darkness(picture, shadowSpot) / max(darkness(picture, boxSpot), 1)
                try watcher.waitForDestroy(window)
                _ = try watcher.waitFor("\(preset): nothing left after the toast", timeout: 1.5) { () -> Bool? in
                    let after = try Screenshot(display: server.name)
                    let (shadow, body) = (darkness(after, shadowSpot), darkness(after, boxSpot))
                    #expect(shadow <= shown * body + 4, "\(preset): a shadow (\(shadow)) around a box that is gone (\(body))")
                    return after.changedPixels(in: grown(box, by: 80), outside: nil, tolerance: backgroundTolerance).isEmpty ? true : nil
                }
                #expect(try toast.wait().status == 0)
            }
        }

        /// The shadow fades with the toast: half way through a slow linear fade-in it is about
        /// half as dark as once the toast is shown (picom's shadow follows the window's opacity).
        @Test func theShadowFadesWithTheToast() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let picom = try server.startCompositor(["picom", "--backend", "xrender", "-c", "-f"], watcher: watcher)
            defer { picom.stop() }
            let fadeIn = 3.0
            let toast = try XToastProcess(
                ["--fade-in", String(fadeIn), "--easing", "linear", "--duration", "sticky", "--position", "center", "Fading"],
                display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let mapped = Date()
            let frame = try #require(watcher.geometry(window))
            let spot = (frame.x + frame.width / 2, frame.y + frame.height + 2)
            Thread.sleep(forTimeInterval: fadeIn / 2 - Date().timeIntervalSince(mapped))
            let before = Date().timeIntervalSince(mapped) / fadeIn
            let middle = try Screenshot(display: server.name).pixel(spot.0, spot.1).b
            let after = Date().timeIntervalSince(mapped) / fadeIn
            let full = try watcher.waitFor("the fade-in's end", timeout: fadeIn + 2) { () -> Int? in
                Date().timeIntervalSince(mapped) > fadeIn + 0.3 ? try Screenshot(display: server.name).pixel(spot.0, spot.1).b : nil
            }
            let ratio = Double(backgroundColour.b - middle) / Double(backgroundColour.b - full)
            #expect(full < backgroundColour.b - 20, "no shadow once shown (blue \(full), half way \(middle), frame \(frame))")
            // Allowing for when exactly the compositor shows the frame the shot catches.
            #expect(
                ratio > before - 0.15 && ratio < after + 0.15,
                "shadow at \(ratio) of its strength \(before)…\(after) of the way through the fade")
            toast.signal(SIGUSR1)
            #expect(try toast.wait().status == 0)
        }

        /// xcompmgr with its shadows (`-c`): the fade blends by the window's opacity there too, and
        /// nothing is left when the toast has gone.
        @Test func xcompmgrBlendsTheFadeAndLeavesNothing() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let xcompmgr = try server.startCompositor(["xcompmgr", "-c"], watcher: watcher)
            defer { xcompmgr.stop() }
            let fadeIn = 3.0
            let toast = try XToastProcess(
                [
                    "--fade-in", String(fadeIn), "--easing", "linear", "--duration", "0", "--fade-out", "0", "--position", "center",
                    "Fading",
                ],
                display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let mapped = Date()
            let frame = try #require(watcher.geometry(window))
            Thread.sleep(forTimeInterval: fadeIn / 2 - Date().timeIntervalSince(mapped))
            let before = Date().timeIntervalSince(mapped)
            let shot = try Screenshot(display: server.name)
            let after = Date().timeIntervalSince(mapped)
            let blue = Double(shot.pixel(frame.x + 3, frame.y + frame.height / 2).b)
            func expected(_ t: Double) -> Double { Double(backgroundColour.b) * (1 - 0.8 * min(max(t / fadeIn, 0), 1)) }
            #expect(blue <= expected(before - 0.1) + 2 && blue >= expected(after + 0.1) - 2, "blue \(blue) at \(before)…\(after) s")
            let stray = shot.changedPixels(in: grown(frame, by: 60), outside: grown(frame, by: shadowReach), tolerance: backgroundTolerance)
            #expect(stray.isEmpty, "\(stray.count) pixels changed away from the box")
            try watcher.waitForDestroy(window)
            _ = try watcher.waitFor("nothing left after the toast", timeout: 0.5) { () -> Bool? in
                try Screenshot(display: server.name).changedPixels(in: grown(frame, by: 60), outside: nil, tolerance: backgroundTolerance)
                    .isEmpty ? true : nil
            }
            #expect(try toast.wait().status == 0)
        }

        /// Struts are any client's to write: garbage (a wrong format, a wrong length, a bar
        /// taller than the screen, −1, a client list of windows that do not exist, a broken work
        /// area) moves nothing; a sane strut beside them still counts.
        @Test func garbageStrutsFromAnotherClientChangeNothing() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            func dock(_ property: String, format: Int32, _ values: [UInt]) -> Window {
                let window = XCreateSimpleWindow(watcher.display, watcher.root, 0, 0, 10, 10, 0, 0, 0)
                if format == 32 {
                    // Format-32 data goes in as C longs.
                    values.withUnsafeBytes { bytes in
                        _ = XChangeProperty(
                            watcher.display, window, watcher.atom(property), Atom(XA_CARDINAL), 32, PropModeReplace,
                            bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(values.count))
                    }
                } else {
                    let bytes = values.map { UInt8(truncatingIfNeeded: $0) }
                    XChangeProperty(
                        watcher.display, window, watcher.atom(property), Atom(XA_CARDINAL), 8, PropModeReplace, bytes, Int32(bytes.count))
                }
                XMapWindow(watcher.display, window)
                return window
            }
            for (property, format, values) in [
                ("_NET_WM_STRUT_PARTIAL", 8, [0, 0, 0, 200, 0, 0, 0, 0, 0, 0, 0, 1919]),
                ("_NET_WM_STRUT_PARTIAL", 32, [0, 0, 0, 200, 0, 0]),
                ("_NET_WM_STRUT_PARTIAL", 32, [0, 0, 0, 5000, 0, 0, 0, 0, 0, 0, 0, 1919]),
                ("_NET_WM_STRUT_PARTIAL", 32, [0, 0, 0, 0xffff_ffff, 0, 0, 0, 0, 0, 0, 0, 1919]),
                ("_NET_WM_STRUT", 32, [0, 0, 0, 0xffff_ffff]),
            ] as [(String, Int32, [UInt])] {
                _ = dock(property, format: format, values)
            }
            // The window manager's root properties, garbled: windows that do not exist, a work
            // area of three numbers, a desktop far past the list.
            func longBytes(_ values: [UInt]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }
            watcher.setRootProperty("_NET_CLIENT_LIST", type: Atom(XA_WINDOW), format: 32, bytes: longBytes([0xdead_beef, 0, 1]), count: 3)
            watcher.setRootProperty("_NET_WORKAREA", type: Atom(XA_CARDINAL), format: 32, bytes: longBytes([0, 0, 100]), count: 3)
            watcher.setRootProperty("_NET_CURRENT_DESKTOP", type: Atom(XA_CARDINAL), format: 32, bytes: longBytes([0xffff_ffff]), count: 1)
            XSync(watcher.display, 0)
            func bottomEdge() throws -> Int {
                // Held until its place is read: a toast gone at once may be gone before that.
                let toast = try XToastProcess(
                    ["--duration", "sticky", "--fade-in", "0", "--fade-out", "0", "Still at the edge"], display: server.name)
                let window = try #require(try watcher.waitForToasts().first)
                let frame = try #require(watcher.geometry(window))
                toast.signal(SIGUSR1)
                let result = try toast.wait()
                #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
                return frame.y + frame.height
            }
            #expect(try bottomEdge() == 1080 - 15)
            _ = dock("_NET_WM_STRUT_PARTIAL", format: 32, [0, 0, 0, 30, 0, 0, 0, 0, 0, 0, 0, 1919])
            XSync(watcher.display, 0)
            #expect(try bottomEdge() == 1080 - 30 - 15)
        }

        /// Without a compositor nothing moves, but every design stays as long: the alert its
        /// 0.35 + 0.9 + 0.35 s.
        @Test func withoutACompositorTheAlertStaysItsWholeTime() throws {
            let server = try PrivateXServer()
            let watcher = try XWatcher(display: server.name)
            let toast = try XToastProcess(["--preset", "alert", "Saved"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let lifetime = try watcher.waitForDestroy(window)
            #expect(lifetime >= 1.55 && lifetime < 2.5, "gone after \(lifetime) s")
            #expect(try toast.wait().status == 0)
        }
    }
}
