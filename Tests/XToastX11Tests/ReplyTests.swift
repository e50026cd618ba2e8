import CX11
import Foundation
import Testing

/// `--reply` and the spec's `inline-reply`: a button that opens a one-line entry in the button
/// row. The toast takes the keyboard only while the entry is open; Enter sends, Escape gives
/// the keyboard back.
extension OnScreen {
    @Suite(.serialized) struct Reply {
        /// Whether another client could grab the keyboard now (and lets it go at once).
        static func keyboardIsFree(_ watcher: XWatcher) -> Bool {
            let dpy = watcher.display
            let grabbed = XGrabKeyboard(dpy, XDefaultRootWindow(dpy), 0, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
            XUngrabKeyboard(dpy, UInt(CurrentTime))
            XSync(dpy, 0)
            return grabbed == GrabSuccess
        }

        /// The middle of a toast's one-button row (10 px padding, a 26 px button).
        static func replyButton(_ frame: (x: Int, y: Int, width: Int, height: Int)) -> (x: Int, y: Int, width: Int, height: Int) {
            (frame.x + frame.width / 2 - 4, frame.y + frame.height - 10 - 13, 8, 1)
        }

        private func type(_ text: String, display: String) throws {
            try runTool("xdotool", ["type", "--delay", "20", text], display: display)
        }

        private func key(_ name: String, display: String) throws { try runTool("xdotool", ["key", name], display: display) }

        /// The keyboard is free while the toast shows; its Reply button takes it; what is typed
        /// (text in any script: xdotool maps the keys it lacks) is printed after `replied` once Enter is pressed.
        @Test func aReplyTypedIsPrinted() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let asking = try XToastProcess(
                ["--duration", "sticky", "--monitor", "L", "--print-outcome", "--reply", "Reply", "Your name?"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            #expect(frame.width >= 320, "room to type a line: \(frame)")
            #expect(Self.keyboardIsFree(watcher), "the toast holds the keyboard before its entry opens")
            try click(Self.replyButton(frame), display: display)
            try waitUntil("the entry takes the keyboard") { !Self.keyboardIsFree(watcher) }
            try type("Grüße, друг", display: display)
            try key("Return", display: display)
            let answer = try asking.wait()
            #expect(answer.status == 0)
            #expect(answer.stdout == "replied\nGrüße, друг\n")
            #expect(Self.keyboardIsFree(watcher))
            try expectOthersStillShow(display, watcher)
        }

        /// Escape closes the entry: the keyboard is free again and the toast stays, until it is
        /// dismissed as any toast is.
        @Test func escapeGivesTheKeyboardBack() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let asking = try XToastProcess(
                ["--duration", "sticky", "--monitor", "L", "--print-outcome", "--reply", "Answer", "Well?"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            try click(Self.replyButton(frame), display: display)
            try waitUntil("the entry takes the keyboard") { !Self.keyboardIsFree(watcher) }
            try type("never mind", display: display)
            try key("Escape", display: display)
            try waitUntil("the keyboard is free again") { Self.keyboardIsFree(watcher) }
            #expect(watcher.geometry(window) != nil, "the toast is still there")
            _ = try XToastProcess.run(["--dismiss"], display: display)
            let answer = try asking.wait()
            #expect(answer.stdout == "dismissed\n")
        }

        /// An application's `inline-reply`: `--press Reply` opens the entry (as a key binding
        /// would), and the typed text reaches the client as NotificationReplied, then the close.
        @Test func anApplicationHearsTheReply() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let bus = try PrivateBus(display: display)
            let capabilities = try bus.run([
                "gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.GetCapabilities",
            ])
            #expect(capabilities.contains("'inline-reply'"), "\(capabilities)")
            let client = try bus.start([
                "/usr/bin/python3", "-c",
                listeningClient(
                    #"server.Notify("Chat", 0, "", "Ana", "Lunch at one?", ["inline-reply", "", "later", "Later"], {"x-kde-reply-placeholder-text": "Answer Ana"}, 0)"#
                ),
            ])
            _ = try #require(try watcher.waitForToasts().first)
            let pressed = try bus.start([try xtoastBinary(), "--press", "Reply"]).result(timeout: 30)
            #expect(pressed.status == 0, "\(pressed)")
            try waitUntil("the entry takes the keyboard") { !Self.keyboardIsFree(watcher) }
            try type("On my way", display: display)
            try key("Return", display: display)
            let lines = try client.finish(timeout: 15).split(separator: "\n").map(String.init)
            #expect(lines == ["replied On my way", "closed 2"], "\(lines)")
            try expectOthersStillShow(display, watcher)
        }
    }
}
