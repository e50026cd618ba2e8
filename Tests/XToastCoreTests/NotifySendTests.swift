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
                ["--preset", "normal", "--markup", "--duration", "sticky", "--detach", "--", "Sticky"]
            ),
            (
                ["-eu", "low", "-pt", "500", "Quick"],
                [
                    "--preset", "low", "--markup", "--duration", "500ms", "--tag", "notify-send-4242", "--no-history", "--detach", "--",
                    "Quick",
                ]
            ),
            (["-t", "-1", "Default"], ["--preset", "normal", "--markup", "--detach", "--", "Default"]),
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
                    "--preset", "low", "--markup", "--icon", "audio-volume-high", "--progress", "55", "--tag", "volume", "--detach", "--",
                    "Volume: 55%",
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
                ["-h", "byte:urgency:2", "-e", "-c", "device,email", "Urgent"],
                ["--preset", "critical", "--markup", "--no-history", "--detach", "--", "Urgent"]
            ),
            (["-r", "42", "Replacing"], ["--preset", "normal", "--markup", "--tag", "notify-send-42", "--detach", "--", "Replacing"]),
            (["-w", "Waiting"], ["--preset", "normal", "--markup", "--", "Waiting"]),
            (["--", "-5 °C"], ["--preset", "normal", "--markup", "--detach", "--", "-5 °C"]),
            (["Summary", ""], ["--preset", "normal", "--markup", "--detach", "--", "Summary"]),
        ] as [([String], [String])])
    func commandLines(notifySend: [String], expected: [String]) throws {
        #expect(try Self.xtoast(notifySend) == expected)
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
            (["-t500", "x"], "invalid expire time"),
        ] as [([String], String)])
    func refused(arguments: [String], message: String) {
        #expect {
            try NotifySend.invocation(arguments, newID: 1)
        } throws: { error in
            (error as? OptionError)?.message.hasPrefix(message) == true
        }
    }
}
