import CX11
import Foundation
import Testing

/// The control surface for keybindings and status bars (`--press`), on a private Xvfb: a
/// press on the shared display could click another suite's toast.
@Suite("Control surface")
struct ControlTests {
    static let sticky = ["--duration", "sticky", "--fade-in", "0", "--fade-out", "0", "--print-outcome"]

    @Test func pressClicksTheToastOnScreenAsTheMouseWould() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let nothing = try XToastProcess.run(["--press"], display: server.name)
        #expect(nothing.status == 1 && nothing.stderr == "xtoast: no toast on screen\n", "\(nothing.stderr)")

        let install = try XToastProcess(Self.sticky + ["--action", "Update ready. Click to install"], display: server.name)
        try watcher.waitForShown(pid: install.child.pid)
        let pressed = try XToastProcess.run(["--press"], display: server.name)
        #expect(pressed.status == 0 && pressed.stdout.isEmpty && pressed.stderr.isEmpty, "\(pressed.stderr)")
        let answer = try install.wait()
        #expect(answer.status == 0, "a click on an --action toast means yes")
        #expect(answer.stdout == "action\n")
    }

    @Test func pressLabelClicksThatButtonAndAnUnknownLabelPressesNothing() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let asking = try XToastProcess(Self.sticky + ["--button", "Yes", "--button", "Not now", "Delete?"], display: server.name)
        try watcher.waitForShown(pid: asking.child.pid)
        // One waiting behind it, with the same button: not on screen, not pressed.
        let waiting = try XToastProcess(Self.sticky + ["--button", "Not now", "Later"], display: server.name)
        try waitUntil("the second toast queued") { watcher.ticket(of: waiting.child.pid) != nil }

        let unknown = try XToastProcess.run(["--press", "Maybe"], display: server.name)
        #expect(unknown.status == 1 && unknown.stderr == "xtoast: no toast on screen has a button \"Maybe\"\n", "\(unknown.stderr)")
        let pressed = try XToastProcess.run(["--press", "Not", "now"], display: server.name)
        #expect(pressed.status == 0, "\(pressed.stderr)")
        let answer = try asking.wait()
        #expect(answer.status == 0)
        #expect(answer.stdout == "button\nNot now\n")

        // The one behind it is on screen now; a plain press is a click on its body.
        try watcher.waitForShown(pid: waiting.child.pid)
        #expect(try XToastProcess.run(["--press"], display: server.name).status == 0)
        let second = try waiting.wait()
        #expect(second.status == 0 && second.stdout == "clicked\n")
    }
}
