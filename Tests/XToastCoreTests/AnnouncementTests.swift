import Testing

@testable import XToastCore

@Suite("Screen reader announcements")
struct AnnouncementTests {
    @Test(
        "The sentence a screen reader is given",
        arguments: [
            (ToastContent(message: "Tagged"), "Tagged"),
            (ToastContent(message: "Done", title: "Build"), "Build. Done"),
            (ToastContent(message: "Done", title: "Build:"), "Build: Done"),
            (ToastContent(message: "Volume", progress: Progress(percent: 40)), "Volume, 40%"),
            (ToastContent(message: "Almost.", progress: Progress(percent: 99.6, alternate: true)), "Almost. 100%"),
            (ToastContent(message: "Two\nlines\n\n\tand a tab"), "Two lines and a tab"),
            (ToastContent(message: "bell\u{FFFD}and\u{7}nul\u{0}"), "bell and nul"),
            (ToastContent(message: "\u{202E}reversed\u{200B}"), "reversed"),
            (ToastContent(message: "<b>bold</b> &amp; &lt;tag&gt; &#8364;&#x41;", markup: true), "bold & <tag> €A"),
            (ToastContent(message: "<b>typed</b> &amp;"), "<b>typed</b> &amp;"),
            (ToastContent(message: "a < b & c", markup: true), "a < b & c"),
            (ToastContent(message: "AT&T &bogus; &#xZZ;", markup: true), "AT&T &bogus; &#xZZ;"),
            (ToastContent(message: "<i>Note</i>", title: "<b>Title</b>", markup: true), "Title. Note"),
            (ToastContent(message: "\u{FFFD}", progress: Progress(percent: 5)), "5%"),
        ])
    func sentence(content: ToastContent, expected: String) {
        #expect(Announcement.text(for: content) == expected)
    }

    @Test("Nothing to say: no announcement")
    func nothing() {
        #expect(Announcement.text(for: ToastContent(message: " \u{FFFD}\n")) == nil)
        #expect(Announcement.text(for: ToastContent(message: "<b></b>", markup: true)) == nil)
    }

    @Test("A long text is cut after the last whole word within the limit")
    func bounded() throws {
        let words = String(repeating: "word ", count: 1000)
        let text = try #require(Announcement.text(for: ToastContent(message: words)))
        #expect(text.count <= Announcement.characterLimit)
        #expect(text.count > Announcement.characterLimit - 5)
        #expect(text.hasSuffix("word"))
        let oneLongWord = String(repeating: "x", count: 5000)
        #expect(Announcement.text(for: ToastContent(message: oneLongWord))?.count == Announcement.characterLimit)
    }

    @Test(
        "Orca's own service wins, then ScreenReaderEnabled; no answer is no",
        arguments: [
            (true, nil, nil, ScreenReaderRoute.orca(.current)),
            (true, true, true, .orca(.current)),
            (false, true, true, .orca(.older)),
            (nil, nil, true, .speechDispatcher),
            (false, false, true, .speechDispatcher),
            (false, false, false, .none),
            (nil, nil, nil, .none),
        ] as [(Bool?, Bool?, Bool?, ScreenReaderRoute)])
    func route(current: Bool?, older: Bool?, enabled: Bool?, expected: ScreenReaderRoute) {
        #expect(ScreenReaderRoute.choose(currentOrcaRuns: current, olderOrcaRuns: older, screenReaderEnabled: enabled) == expected)
    }

    @Test("Orca's remote controller: Orca1 from Orca 51, the name without a digit in 49 and 50")
    func orcaNames() {
        #expect(ScreenReaderRoute.OrcaService.current.busName == "org.gnome.Orca1.Service")
        #expect(ScreenReaderRoute.OrcaService.current.path == "/org/gnome/Orca1/Service")
        #expect(ScreenReaderRoute.OrcaService.older.interface == "org.gnome.Orca.Service")
        #expect(ScreenReaderRoute.OrcaService.older.path == "/org/gnome/Orca/Service")
    }
}

@Suite("SSIP")
struct SSIPTests {
    @Test(
        "SPEAK's data: CR LF line ends, a leading dot doubled, a lone dot to end",
        arguments: [
            ("Hello", "Hello\r\n.\r\n"),
            (".hidden", "..hidden\r\n.\r\n"),
            ("a\n.\nb", "a\r\n..\r\nb\r\n.\r\n"),
            ("a\r\nb\rc", "a\r\nb\r\nc\r\n.\r\n"),
            ("", "\r\n.\r\n"),
        ])
    func data(text: String, expected: String) {
        #expect(SSIP.data(text) == Array(expected.utf8))
    }

    @Test("The conversation: client name, the polite priority, SPEAK, the text, QUIT")
    func conversation() {
        let steps = SSIP.conversation(speaking: "Hi", user: "ann")
        #expect(
            steps.map { String(decoding: $0.bytes, as: UTF8.self) } == [
                "SET self CLIENT_NAME ann:xtoast:toast\r\n", "SET self PRIORITY message\r\n", "SPEAK\r\n", "Hi\r\n.\r\n", "QUIT\r\n",
            ])
        #expect(steps.map(\.expected) == [208, 202, 230, 225, 231])
    }

    @Test("A user name cannot change the command", arguments: [("a b:c\r\nQUIT", "abcQUIT"), ("", "unknown"), ("é", "unknown")])
    func clientName(user: String, expected: String) {
        #expect(SSIP.clientName(user: user) == expected + ":xtoast:toast")
    }

    @Test("Replies: one line, or several with a dash after the code; nil until the last line")
    func replies() throws {
        let queued = Array("225-17\r\n225 OK MESSAGE QUEUED\r\nrest".utf8)
        #expect(try SSIP.reply(in: queued[...])?.code == 225)
        #expect(try SSIP.reply(in: queued[...])?.consumed == queued.count - 4)
        #expect(try SSIP.reply(in: Array("225-17\r\n225 OK".utf8)[...]) == nil)
        #expect(try SSIP.reply(in: Array("208 OK CLIENT NAME SET\r\n".utf8).dropFirst(0))?.code == 208)
        #expect(throws: SSIP.ReplyError.malformed) { try SSIP.reply(in: Array("HTTP/1.1 200 OK\r\n".utf8)[...]) }
        #expect(throws: SSIP.ReplyError.malformed) { try SSIP.reply(in: [UInt8](repeating: 65, count: SSIP.replyLimit + 1)[...]) }
    }

    @Test(
        "Where Speech Dispatcher listens",
        arguments: [
            (["XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/speech-dispatcher/speechd.sock"),
            (["SPEECHD_ADDRESS": "unix_socket:/tmp/s.sock", "XDG_RUNTIME_DIR": "/run"], "/tmp/s.sock"),
            (["SPEECHD_ADDRESS": "unix_socket", "XDG_RUNTIME_DIR": "/run"], "/run/speech-dispatcher/speechd.sock"),
            (["SPEECHD_ADDRESS": "inet_socket:localhost:6560", "XDG_RUNTIME_DIR": "/run"], nil),
            (["HOME": "/home/ann"], "/home/ann/.cache/speech-dispatcher/speechd.sock"),
            (["XDG_CACHE_HOME": "/c", "HOME": "/home/ann"], "/c/speech-dispatcher/speechd.sock"),
            ([:], nil),
        ] as [([String: String], String?)])
    func socketPath(environment: [String: String], expected: String?) {
        #expect(SSIP.socketPath { environment[$0] } == expected)
    }
}
