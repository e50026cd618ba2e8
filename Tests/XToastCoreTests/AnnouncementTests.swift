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

@Suite("D-Bus wire format")
struct DBusWireTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    static let hello =
        "6c01000100000000010000006e00000001016f00150000002f6f72672f667265656465736b746f702f4442757300000006017300140000006f72672e667265656465736b746f702e444275730000000002017300140000006f72672e667265656465736b746f702e4442757300000000030173000500000048656c6c6f000000"
    static let get =
        "6c0102012c000000040000007000000001016f000d0000002f6f72672f613131792f627573000000060173000c0000006f72672e613131792e42757300000000020173001f0000006f72672e667265656465736b746f702e444275732e50726f70657274696573000301730003000000476574000000000008016700027373000f0000006f72672e613131792e537461747573001300000053637265656e526561646572456e61626c656400"

    /// Checked against GLib: `Gio.DBusMessage.new_from_blob` reads these as the calls they are.
    @Test("Method calls, byte for byte")
    func methodCalls() {
        #expect(Self.hex(DBusWire.busCall(serial: 1, member: "Hello")) == Self.hello)
        #expect(
            Self.hex(
                DBusWire.methodCall(
                    serial: 4, destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties",
                    member: "Get", arguments: ["org.a11y.Status", "ScreenReaderEnabled"], flags: DBusWire.noAutoStart)) == Self.get)
    }

    @Test("Our own calls parse back")
    func roundTrip() throws {
        let call = DBusWire.busCall(serial: 9, member: "NameHasOwner", arguments: ["org.gnome.Orca1.Service"])
        let (message, consumed) = try #require(try DBusWire.parse(call[...]))
        #expect(consumed == call.count)
        #expect(message.kind == .methodCall && message.serial == 9 && message.signature == "s")
        #expect(try DBusWire.parse(call.dropLast()) == nil)
    }

    /// Made by GLib's `Gio.DBusMessage.to_blob`.
    static let getReturnsTrue = "6c020101080000000700000010000000080167000176000005017500040000000162000001000000"
    static let bigEndianFalse = "420201010000000400000007000000100801670001620000050175000000000400000000"
    static let serviceUnknown =
        "6c03010120000000070000004800000004017300290000006f72672e667265656465736b746f702e444275732e4572726f722e53657276696365556e6b6e6f776e00000000000000080167000173000005017500040000001b000000546865206e616d65206973206e6f74206163746976617461626c6500"
    static let nameAcquired =
        "6c04010109000000020000008d00000007017300140000006f72672e667265656465736b746f702e444275730000000001016f00150000002f6f72672f667265656465736b746f702f4442757300000002017300140000006f72672e667265656465736b746f702e444275730000000006017300040000003a312e37000000000801670001730000030173000c0000004e616d65416371756972656400000000040000003a312e3700"

    @Test("Replies as GLib writes them: a variant boolean, a big-endian boolean, an error, a signal")
    func replies() throws {
        let get = try #require(try DBusWire.parse(Self.bytes(Self.getReturnsTrue)[...])).0
        #expect(get.kind == .methodReturn && get.replySerial == 4 && get.boolean == true)
        let big = try #require(try DBusWire.parse(Self.bytes(Self.bigEndianFalse)[...])).0
        #expect(big.bigEndian && big.replySerial == 4 && big.boolean == false)
        let error = try #require(try DBusWire.parse(Self.bytes(Self.serviceUnknown)[...])).0
        #expect(error.kind == .error && error.errorName == "org.freedesktop.DBus.Error.ServiceUnknown" && error.boolean == nil)
        // Two messages in one buffer: the first is taken, the rest left.
        let both = Self.bytes(Self.nameAcquired) + Self.bytes(Self.getReturnsTrue)
        let (signal, consumed) = try #require(try DBusWire.parse(both[...]))
        #expect(signal.kind == .signal && signal.replySerial == nil)
        #expect(try DBusWire.parse(both[consumed...])?.0.boolean == true)
    }

    @Test("Hostile lengths and bytes are refused before anything is read past the limit")
    func hostile() {
        var huge = Self.bytes(Self.getReturnsTrue)
        huge[4...7] = [0xff, 0xff, 0xff, 0x7f]
        #expect(throws: DBusWire.ParseError.malformed) { try DBusWire.parse(huge[...]) }
        var badFields = Self.bytes(Self.getReturnsTrue)
        badFields[15] = 0x7f
        #expect(throws: DBusWire.ParseError.malformed) { try DBusWire.parse(badFields[...]) }
        #expect(throws: DBusWire.ParseError.malformed) { try DBusWire.parse(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...]) }
        var badSignature = Self.bytes(Self.getReturnsTrue)
        badSignature[20] = 3  // a signature length that runs past its NUL
        #expect(throws: DBusWire.ParseError.malformed) { try DBusWire.parse(badSignature[...]) }
    }

    @Test("Authentication: a NUL, then AUTH EXTERNAL and the uid's digits in hex")
    func authentication() {
        #expect(DBusWire.authenticationRequest(uid: 1000) == [0] + Array("AUTH EXTERNAL 31303030\r\n".utf8))
        #expect(DBusWire.authenticationRequest(uid: 0) == [0] + Array("AUTH EXTERNAL 30\r\n".utf8))
    }

    @Test(
        "Session bus addresses: the unix sockets in order, escapes decoded, other transports left out",
        arguments: [
            ("unix:path=/run/user/1000/bus", [UnixSocketAddress.path("/run/user/1000/bus")]),
            ("unix:abstract=/tmp/dbus-XYZ,guid=0123", [.abstract("/tmp/dbus-XYZ")]),
            ("tcp:host=x,port=1;unix:path=/a%20b", [.path("/a b")]),
            ("unix:path=/a,abstract=b;unix:path=/c", [.path("/a"), .path("/c")]),
            ("unix:path=%zz;autolaunch:", []),
            ("", []),
        ] as [(String, [UnixSocketAddress])])
    func addresses(address: String, expected: [UnixSocketAddress]) {
        #expect(UnixSocketAddress.candidates(inDBusAddress: address) == expected)
    }
}
