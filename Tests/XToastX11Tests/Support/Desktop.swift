import CX11
import Foundation

/// Real desktop programs from Debian, started on a private server the way users run them.
extension PrivateXServer {
    /// Starts i3 with a minimal config: its bar at the bottom, on `barOutput` only when given.
    /// Returns once the bar is up with its strut; throws if i3 is missing or the bar never comes.
    func startI3(watcher: XWatcher, barOutput: String? = nil) throws -> (i3: Child, bar: Int) {
        let folder = temporaryPath("-i3")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let config = "\(folder)/config"
        let output = barOutput.map { "    output \($0)\n" } ?? ""
        let text = "# i3 config file (v4)\nfont pango:DejaVu Sans 10\nbar {\n\(output)    position bottom\n    status_command true\n}\n"
        guard FileManager.default.createFile(atPath: config, contents: Data(text.utf8)) else {
            throw TestFailure("cannot write the i3 config \(config)")
        }
        // i3 keeps its socket and logs under XDG_RUNTIME_DIR: a folder of our own.
        let i3 = try Child(
            ["i3", "-c", config], environment: ["DISPLAY": name, "XDG_RUNTIME_DIR": folder], stdout: "\(folder)/log",
            stderr: "\(folder)/log")
        let bar = try watcher.waitFor("i3bar's dock with its strut", timeout: 15) { watcher.bottomStrut() }
        return (i3, bar)
    }

    /// Starts a compositor (`picom …`, `xcompmgr …`) and returns once it owns the selection.
    func startCompositor(_ command: [String], watcher: XWatcher) throws -> Child {
        let child = try Child(command, environment: ["DISPLAY": name])
        try watcher.waitForCompositor(running: true)
        return child
    }
}

extension XWatcher {
    /// `waitForValue`, draining the watcher's events between looks: its queue must not grow
    /// without bound.
    func waitFor<T>(_ what: String, timeout: Double, _ condition: () throws -> T?) throws -> T {
        try waitForValue(what, timeout: timeout) {
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
            }
            return try condition()
        }
    }

    /// The largest bottom strut (`_NET_WM_STRUT_PARTIAL`) of a window two levels down from the
    /// root (a dock in its window manager's frame) or one, nil when there is none.
    func bottomStrut() -> Int? {
        let windows = stackingOrder().flatMap { [$0] + children($0) }
        let struts = windows.map { longs($0, "_NET_WM_STRUT_PARTIAL", type: Atom(XA_CARDINAL), limit: 12) }
        return struts.filter { $0.count == 12 && $0[3] > 0 }.map { Int($0[3]) }.max()
    }

    /// The box of a toast window in root coordinates: where clicks land (its input shape).
    func clickableBox(_ window: Window) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let frame = geometry(window) else { return nil }
        var count: Int32 = 0
        var ordering: Int32 = 0
        guard let rects = XShapeGetRectangles(display, window, ShapeInput, &count, &ordering), count == 1 else { return nil }
        defer { XFree(rects) }
        let r = rects.pointee
        return (frame.x + Int(r.x), frame.y + Int(r.y), Int(r.width), Int(r.height))
    }

    func children(_ window: Window) -> [Window] {
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, window, &rootReturn, &parent, &children, &count) != 0, let children else { return [] }
        defer { XFree(children) }
        return Array(UnsafeBufferPointer(start: children, count: Int(count)))
    }

    /// Waits until `window` has been moved so that `check` holds for its rectangle.
    func waitForMove(
        _ window: Window, timeout: Double = 10, until check: ((x: Int, y: Int, width: Int, height: Int)) -> Bool
    ) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let frame = geometry(window), check(frame) { return frame }
            guard let event = nextEvent(timeout: deadline.timeIntervalSinceNow) else {
                throw TestFailure(
                    "window 0x\(String(window, radix: 16)) did not move as expected within \(timeout) s: \(String(describing: geometry(window)))"
                )
            }
            _ = event
        }
    }
}

extension Screenshot {
    /// The pixels in `area` (clipped to the screen) whose blue differs from the background's by
    /// more than `tolerance`, outside `allowed`.
    func changedPixels(
        in area: (x: Int, y: Int, width: Int, height: Int), outside allowed: (x: Int, y: Int, width: Int, height: Int)?,
        tolerance: Int
    ) -> [(x: Int, y: Int, b: Int)] {
        var found: [(x: Int, y: Int, b: Int)] = []
        for y in max(area.y, 0)..<min(area.y + area.height, height) {
            for x in max(area.x, 0)..<min(area.x + area.width, width) {
                if let a = allowed, x >= a.x, x < a.x + a.width, y >= a.y, y < a.y + a.height { continue }
                let b = pixel(x, y).b
                if abs(b - backgroundColour.b) > tolerance { found.append((x, y, b)) }
            }
        }
        return found
    }
}

/// A rectangle grown by `d` pixels on each side.
func grown(_ r: (x: Int, y: Int, width: Int, height: Int), by d: Int) -> (x: Int, y: Int, width: Int, height: Int) {
    (r.x - d, r.y - d, r.width + 2 * d, r.height + 2 * d)
}
