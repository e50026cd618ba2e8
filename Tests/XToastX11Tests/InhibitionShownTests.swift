import CX11
import Foundation
import Testing

/// Do not disturb held by a process, shown (issue #30): while `xtoast --inhibit -- COMMAND`
/// holds notifications, `xtoast --list` and `--watch` say who; once the holder is killed, or the
/// service that held it dies, they say so no more. On a private Xvfb: the shared display's
/// `--list` is the other suites' too.
@Suite("Inhibition shown", .serialized)
struct InhibitionShownTests {
    @Test func listSaysWhoInhibitsUntilTheHolderOrTheServiceIsKilled() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let bus = try PrivateBus(display: server.name)
        let xtoast = ["env", "DISPLAY=\(server.name)", try xtoastBinary()]
        let line = "inhibited by sleep (sleep 30)\n"
        let (watch, lines) = try WatchTests.watch(server.name, bus)
        #expect(try lines.next() == WatchTests.idle)
        let held = #"{"count":0,"unread":0,"paused":false,"inhibited":true,"by":["sleep (sleep 30)"],"showing":0,"waiting":0}"#
        let holder = try bus.start(xtoast + ["--inhibit", "--", "sleep", "30"])
        #expect(try lines.next() == held)
        #expect(try bus.run(xtoast + ["--list"]).contains(line))
        kill(holder.child.pid, SIGKILL)
        _ = holder.child.wait(timeout: 10)
        // The bus tells the service its client vanished; the service takes its word back.
        #expect(try lines.next() == WatchTests.idle)
        #expect(try !bus.run(xtoast + ["--list"]).contains("inhibited"))
        #expect(watcher.longs(watcher.root, "_XTOAST_INHIBITED", type: Atom(XA_WINDOW)).isEmpty)

        // The service killed while it holds one: nobody takes the root's pointer away, but the
        // window it names went with the service's connection, and a stale pointer says nothing.
        let second = try bus.start(xtoast + ["--inhibit", "--", "sleep", "30"])
        #expect(try lines.next() == held)
        #expect(try bus.run(xtoast + ["--list"]).contains(line))
        let service = try servicePID(bus)
        kill(service, SIGKILL)
        // The watch follows the window: its end is a line.
        #expect(try lines.next() == WatchTests.idle)
        try waitUntil("the service is gone") { kill(service, 0) != 0 }
        #expect(watcher.longs(watcher.root, "_XTOAST_INHIBITED", type: Atom(XA_WINDOW)).count == 1)
        let listed = try bus.run(xtoast + ["--list", "--json"])
        #expect(!listed.contains("inhibited by") && listed.hasPrefix(#"{"paused":false,"inhibited":false}"#), "\(listed)")
        #expect(try !bus.run(xtoast + ["--list"]).contains("inhibited"))
        second.child.stop(with: SIGKILL)
        // The reader goes: the watch ends, quietly.
        lines.close()
        #expect(try watch.wait(timeout: 10).status == 0)
    }

    /// Scripts' toasts wait while an inhibition lasts, as during a pause (a tagged one, a
    /// volume bar, shows), and show once it ends: its holder killed, or the service that held it.
    @Test func scriptsToastsWaitWhileInhibited() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let bus = try PrivateBus(display: server.name)
        let xtoast = ["env", "DISPLAY=\(server.name)", try xtoastBinary()]
        func pid(of window: Window) -> [UInt] { watcher.longs(window, "_NET_WM_PID", type: Atom(XA_CARDINAL)) }
        for killsTheService in [false, true] {
            let holder = try bus.start(xtoast + ["--inhibit", "--", "sleep", "30"])
            try waitUntil("inhibited", timeout: 20) { try bus.run(xtoast + ["--list"]).contains("inhibited by") }
            let held = try bus.start(xtoast + ["--duration", "0.2", "--print-outcome", "Held"])
            try waitUntil("the toast stands aside") { try bus.run(xtoast + ["--list"]).contains("paused     pid \(held.child.pid)") }
            let volume = try bus.start(xtoast + ["--tag", "volume", "--duration", "0.2", "Volume"])
            #expect(pid(of: try #require(try watcher.waitForToasts().first)) == [UInt(volume.child.pid)])
            _ = try volume.result(timeout: 20)
            if killsTheService {
                kill(try servicePID(bus), SIGKILL)
            } else {
                kill(holder.child.pid, SIGKILL)
            }
            #expect(pid(of: try #require(try watcher.waitForToasts().first)) == [UInt(held.child.pid)])
            #expect(try held.result(timeout: 20).stdout == "expired\n")
            holder.child.stop(with: SIGKILL)
        }
    }

    private func servicePID(_ bus: PrivateBus) throws -> Int32 {
        let owner = try bus.run([
            "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.freedesktop.Notifications",
        ])
        return try #require(Int32(owner.split(separator: " ").last?.filter(\.isNumber) ?? ""), "\(owner)")
    }
}
