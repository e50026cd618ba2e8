import Foundation

/// Runs a program from $PATH to its end; throws with its output when it fails.
@discardableResult
func runTool(_ tool: String, _ arguments: [String], display: String? = nil) throws -> String {
    let output = temporaryPath(".log")
    defer { try? FileManager.default.removeItem(atPath: output) }
    let child = try Child([tool] + arguments, environment: display.map { ["DISPLAY": $0] } ?? [:], stdout: output, stderr: output)
    guard let status = child.wait(timeout: 30) else { throw TestFailure("\(tool) did not finish within 30 s") }
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    guard status == 0 else { throw TestFailure("\(tool) \(arguments.joined(separator: " ")) failed (\(status)): \(text)") }
    return text
}

/// The display the README's test command started (Xvfb 3840x1080 with picom), from $DISPLAY.
/// Without it the X tests fail loudly: they never skip.
func sharedDisplay() throws -> String {
    guard let name = ProcessInfo.processInfo.environment["DISPLAY"], !name.isEmpty else {
        throw TestFailure("DISPLAY is not set: run the X tests through the README's test command (make test)")
    }
    return name
}

/// A private Xvfb for tests that must change the server (no compositor, killed mid-fade).
final class PrivateXServer {
    let name: String
    let xvfb: Child
    private(set) var compositor: Child?

    /// `arguments` are more of Xvfb's options (`-maxclients 64`).
    init(width: Int = 1920, height: Int = 1080, arguments: [String] = []) throws {
        let displayFile = temporaryPath(".display")
        defer { try? FileManager.default.removeItem(atPath: displayFile) }
        let xvfb = try Child(
            ["Xvfb", "-displayfd", "3", "-noreset", "-nolisten", "tcp", "-screen", "0", "\(width)x\(height)x24"] + arguments,
            fd3: displayFile)
        self.xvfb = xvfb
        // Xvfb writes its display number once it accepts connections.
        let number = try waitForValue("Xvfb started") { () throws -> String? in
            guard xvfb.isRunning else { throw TestFailure("Xvfb ended at its start") }
            let written = (try? String(contentsOfFile: displayFile, encoding: .utf8)) ?? ""
            return written.hasSuffix("\n") ? written : nil
        }
        name = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        try setBackground(on: name)
    }

    /// Starts picom and returns once it owns the compositing selection.
    func startCompositor(watcher: XWatcher) throws {
        compositor = try Child(["picom", "--backend", "xrender", "--no-fading-openclose"], environment: ["DISPLAY": name])
        try watcher.waitForCompositor(running: true)
    }

    func stopCompositor(watcher: XWatcher) throws {
        compositor?.stop()
        compositor = nil
        try watcher.waitForCompositor(running: false)
    }

    deinit {
        compositor?.stop()
        xvfb.stop()
    }
}

/// The known background the blending checks measure against, published in `_XROOTPMAP_ID`
/// so that picom paints it too.
let backgroundColour = (r: 48, g: 96, b: 160)

func setBackground(on display: String) throws {
    let hex = String(format: "#%02x%02x%02x", backgroundColour.r, backgroundColour.g, backgroundColour.b)
    try runTool("hsetroot", ["-solid", hex], display: display)
}
