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

extension ControlTests {
    @Test func listShowsTheToastOnScreenTheOneWaitingAndThePause() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let empty = try XToastProcess.run(["--list", "--json"], display: server.name)
        #expect(empty.status == 0 && empty.stdout == "{\"paused\":false,\"inhibited\":false}\n", "\(empty.stderr)")

        let shown = try XToastProcess(Self.sticky + ["--tag", "build", "--button", "Open", "Built"], display: server.name)
        try watcher.waitForShown(pid: shown.child.pid)
        let waiting = try XToastProcess(Self.sticky + ["Next"], display: server.name)
        try waitUntil("the second toast queued") { watcher.ticket(of: waiting.child.pid) != nil }

        let listed = try XToastProcess.run(["--list", "--json"], display: server.name)
        let objects = try listed.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 3, "\(listed.stdout)")
        #expect(objects.first?["paused"] as? Bool == false)
        #expect(objects.dropFirst().map { $0["state"] as? String } == ["showing", "waiting"])
        #expect(objects.dropFirst().map { ($0["pid"] as? NSNumber)?.int32Value } == [shown.child.pid, waiting.child.pid])
        #expect(objects[1]["tag"] as? String == "build" && objects[1]["buttons"] as? [String] == ["Open"])
        #expect((objects[1]["width"] as? NSNumber)?.intValue ?? 0 > 0)
        #expect(objects[1]["text"] as? String == "Built" && objects[2]["text"] as? String == "Next")

        // A bar asks whether toasts are paused: the first line says so.
        #expect(try XToastProcess.run(["--pause"], display: server.name).status == 0)
        let paused = try XToastProcess.run(["--list"], display: server.name)
        #expect(
            paused.stdout.hasPrefix("paused until --resume\nshowing    pid \(shown.child.pid)  [build]  Built  buttons: Open\nwaiting"),
            "\(paused.stdout)")
        #expect(try XToastProcess.run(["--dismiss-all"], display: server.name).status == 0)
        #expect(try shown.wait().stdout == "dismissed\n")
        #expect(try waiting.wait().stdout == "dismissed\n")
    }
}
