import Testing

@testable import XToastCore

/// notify-send's command lines, as scripts write them, turned into xtoast's.
@Suite("notify-send")
struct NotifySendTests {
    static func xtoast(_ arguments: [String], id: Int = 4242) throws -> [String] {
        try NotifySend.invocation(arguments, newID: id).arguments
    }

    @Test(
        "Command lines from scripts",
        arguments: [
            (["Hello world"], ["--preset", "normal", "--markup", "--detach", "--", "Hello world"]),
            (
                ["-u", "critical", "Battery low", "Plug in the charger"],
                ["--preset", "critical", "--markup", "--detach", "--title", "Battery low", "--", "Plug in the charger"]
            ),
            (["-t", "2000", "Done"], ["--preset", "normal", "--markup", "--duration", "2000ms", "--detach", "--", "Done"]),
            (
                ["--expire-time=0", "--app-name=test", "Sticky"],
                ["--preset", "normal", "--markup", "--duration", "sticky", "--app", "test", "--detach", "--", "Sticky"]
            ),
            (
                ["-eu", "low", "-pt", "500", "Quick"],
                [
                    "--preset", "low", "--markup", "--duration", "500ms", "--tag", "notify-send-4242", "--no-history", "--detach", "--",
                    "Quick",
                ]
            ),
            (["-t", "-1", "Default"], ["--preset", "normal", "--markup", "--detach", "--", "Default"]),
            // The category, for the config file's rules; the hint says the same.
            (
                ["-c", "email.arrived", "-a", "mutt", "New mail"],
                ["--preset", "normal", "--markup", "--app", "mutt", "--category", "email.arrived", "--detach", "--", "New mail"]
            ),
            (["-h", "string:category:im", "Hi"], ["--preset", "normal", "--markup", "--category", "im", "--detach", "--", "Hi"]),
            (
                ["-i", "dialog-information", "Title", "Message"],
                ["--preset", "normal", "--markup", "--icon", "dialog-information", "--detach", "--title", "Title", "--", "Message"]
            ),
            // dunst's volume script.
            (
                [
                    "-a", "changeVolume", "-u", "low", "-i", "audio-volume-high", "-h", "string:x-dunst-stack-tag:volume", "-h",
                    "int:value:55", "Volume: 55%",
                ],
                [
                    "--preset", "low", "--markup", "--icon", "audio-volume-high", "--progress", "55", "--tag", "volume", "--app",
                    "changeVolume", "--detach", "--", "Volume: 55%",
                ]
            ),
            (
                ["-h", "string:x-canonical-private-synchronous:bright", "Brightness", "-h", "int:value:140"],
                ["--preset", "normal", "--markup", "--progress", "100", "--tag", "bright", "--detach", "--", "Brightness"]
            ),
            (
                ["--hint=string:image-path:file:///usr/share/pixmaps/debian-logo.png", "Logo"],
                ["--preset", "normal", "--markup", "--icon", "/usr/share/pixmaps/debian-logo.png", "--detach", "--", "Logo"]
            ),
            (
                ["-i", "file://localhost/usr/share/pixmaps/a%20b.png", "Spaced"],
                ["--preset", "normal", "--markup", "--icon", "/usr/share/pixmaps/a b.png", "--detach", "--", "Spaced"]
            ),
            (
                ["-h", "byte:urgency:2", "-e", "-c", "device,email", "Urgent"],
                ["--preset", "critical", "--markup", "--no-history", "--category", "device,email", "--detach", "--", "Urgent"]
            ),
            (["-r", "42", "Replacing"], ["--preset", "normal", "--markup", "--tag", "notify-send-42", "--detach", "--", "Replacing"]),
            (["-w", "Waiting"], ["--preset", "normal", "--markup", "--", "Waiting"]),
            (["--", "-5 °C"], ["--preset", "normal", "--markup", "--detach", "--", "-5 °C"]),
            (["Summary", ""], ["--preset", "normal", "--markup", "--detach", "--", "Summary"]),
        ] as [([String], [String])])
    func commandLines(notifySend: [String], expected: [String]) throws {
        #expect(try Self.xtoast(notifySend) == expected)
    }

    /// Lines libnotify's notify-send accepts that xtoast's own options would refuse: each is
    /// brought within them, never refused (a notification is never lost).
    @Test(
        "What libnotify accepts is shown",
        arguments: [
            // Weeks: a day, the longest xtoast holds a toast.
            (["-t", "2147483647", "x"], ["--duration", "86400000ms", "--detach", "--", "x"]),
            // GLib's integers: strtol's base 0 and leading blanks.
            (["-t", "0x10", "x"], ["--duration", "16ms", "--detach", "--", "x"]),
            (["-t", " 010", "x"], ["--duration", "8ms", "--detach", "--", "x"]), (["-t", "-5", "x"], ["--detach", "--", "x"]),
            // A negative or zero id replaces nothing.
            (["-r", "-1", "x"], ["--detach", "--", "x"]), (["-r", "0", "x"], ["--detach", "--", "x"]),
            (["-r", "2147483647", "x"], ["--tag", "notify-send-2147483647", "--detach", "--", "x"]),
            // Stack tags: empty is none; one xtoast's --tag cannot take is named by its hash.
            (["-h", "string:x-dunst-stack-tag:", "x"], ["--detach", "--", "x"]),
            (["-h", "string:x-canonical-private-synchronous:", "x"], ["--detach", "--", "x"]),
            (["-h", "string:x-dunst-stack-tag:a\tb", "x"], ["--tag", "notify-send-tag-e5bacb19041229c7", "--detach", "--", "x"]),
            (["-h", "STRING:x-dunst-stack-tag:vol", "x"], ["--tag", "vol", "--detach", "--", "x"]),
            // Numbers as libnotify's casts make them.
            (["-h", "int:value:40abc", "x"], ["--progress", "40", "--detach", "--", "x"]),
            (["-h", "int:value:4294967286", "x"], ["--progress", "0", "--detach", "--", "x"]),
            (["-h", "double:value:1e400", "x"], ["--progress", "100", "--detach", "--", "x"]),
            (["-h", "byte:urgency:7", "x"], ["--detach", "--", "x"]),
            (["-h", "int:transient:1", "x"], ["--no-history", "--detach", "--", "x"]),
            (["-h", "boolean:transient:maybe", "x"], ["--detach", "--", "x"]), (["-h", "variant:foo:<42>", "x"], ["--detach", "--", "x"]),
            (["-h", "int::1", "x"], ["--detach", "--", "x"]), (["-h", "byte:x:abc", "x"], ["--detach", "--", "x"]),
            // A lone "-" is text, not standard input; `--=text` is a word.
            (["-"], ["--detach", "--", "&#45;"]), (["--=x", "y"], ["--detach", "--title", "x", "--", "y"]),
            (["-u", "LOW", "x"], ["--detach", "--", "x"]), (["x", "-e"], ["--no-history", "--detach", "--", "x"]),
        ] as [([String], [String])])
    func accepted(notifySend: [String], expected: [String]) throws {
        let arguments = try Self.xtoast(notifySend)
        let urgency = notifySend.contains("LOW") ? "low" : notifySend.contains("byte:urgency:7") ? "critical" : "normal"
        #expect(arguments == ["--preset", urgency, "--markup"] + expected)
    }

    @Test("An icon on another host is left out with one warning, and the notification shows")
    func iconOnAnotherHost() throws {
        let invocation = try NotifySend.invocation(["-i", "file://server/x.png", "Remote"], newID: 1)
        #expect(invocation.arguments == ["--preset", "normal", "--markup", "--detach", "--", "Remote"])
        #expect(
            invocation.warnings == [
                #"icon "file://server/x.png": a file on host "server", not on this machine; showing the toast without it"#
            ])
    }

    @Test("Action labels become buttons xtoast takes; an empty one is skipped, the rest keep their index")
    func actionLabels() throws {
        let long = String(repeating: "y", count: 300)
        let invocation = try NotifySend.invocation(["-A", "a=Two\nlines", "-A", "", "-A", long, "-A", "=", "x"], newID: 1)
        #expect(invocation.actions.map(\.name) == ["a", "2"])
        #expect(invocation.actions.map(\.label) == ["Two lines", String(repeating: "y", count: 64)])
        let nine = try NotifySend.invocation((1...9).flatMap { ["-A", "\($0)"] } + ["x"], newID: 1)
        #expect(nine.actions.count == 8)
    }

    @Test("-p prints an id that a later -r names to replace the notification")
    func printedIDs() throws {
        let first = try NotifySend.invocation(["-p", "Copying"], newID: 777)
        #expect(first.printedID == 777)
        #expect(first.arguments.contains("notify-send-777"))
        let second = try NotifySend.invocation(["-p", "-r", "777", "Copied"], newID: 778)
        #expect(second.printedID == 777)
        #expect(second.arguments.contains("notify-send-777"))
    }

    @Test("Actions are buttons, and the caller waits for the answer")
    func actions() throws {
        let invocation = try NotifySend.invocation(["-A", "yes=Yes", "--action=No", "Continue?"], newID: 1)
        #expect(invocation.waits)
        #expect(invocation.actions.map(\.name) == ["yes", "1"])
        #expect(invocation.actions.map(\.label) == ["Yes", "No"])
        #expect(invocation.arguments == ["--preset", "normal", "--markup", "--button", "Yes", "--button", "No", "--", "Continue?"])
    }

    @Test("Help and version")
    func modes() throws {
        #expect(try NotifySend.invocation(["-?"], newID: 1).mode == .help)
        #expect(try NotifySend.invocation(["--help"], newID: 1).mode == .help)
        #expect(try NotifySend.invocation(["-v"], newID: 1).mode == .version)
    }

    @Test(
        "What notify-send refuses is refused, with a line saying what",
        arguments: [
            ([], "no summary"), (["a", "b", "c"], "too many words"), (["-u", "urgent", "x"], "invalid urgency"),
            (["-t", "soon", "x"], "invalid expire time"), (["-h", "bad", "x"], "invalid hint"),
            (["-h", "float:value:3", "x"], "invalid hint type"), (["-r", "x", "y"], "invalid replace id"),
            (["--bogus", "x"], "unknown option"), (["-z", "x"], "unknown option"), (["x", "-t"], "missing value"),
            (["-t500", "x"], "unknown option '-5'"), (["-t", "4294967295", "x"], "invalid expire time"),
            (["-t", "5 ", "x"], "invalid expire time"), (["-t", "", "x"], "invalid expire time"),
            (["-r", "2147483648", "x"], "invalid replace id"), (["-h", "int:value:-10", "x"], "invalid hint value"),
            (["-h", "int:value:", "x"], "invalid hint value"), (["-h", "double:value:.5", "x"], "invalid hint value"),
            (["-h", "byte:urgency:300", "x"], "invalid hint value"), (["-h", "variant:foo:notgvariant", "x"], "invalid hint value"),
            (["--help=x"], "unknown option"), (["--urgency="], "invalid urgency"),
        ] as [([String], String)])
    func refused(arguments: [String], message: String) {
        #expect {
            try NotifySend.invocation(arguments, newID: 1)
        } throws: { error in
            (error as? OptionError)?.message.hasPrefix(message) == true
        }
    }
}
