import Testing

@testable import XToastCore

/// The history's storage (`HistoryStore`) and listing, as shipped: bounded whatever comes,
/// and whatever is in the file.
@Suite("History")
struct HistoryTests {
    static func entry(_ text: String, time: Int = 1_795_600_000, tag: String? = nil) -> HistoryEntry {
        var entry = HistoryEntry(time: time, ending: "expired", shown: true, text: text)
        entry.tag = tag
        return entry
    }

    /// Records each entry in turn, as one process after another would; the file's bytes.
    static func record(_ entries: [HistoryEntry], into file: [UInt8] = []) -> [UInt8] {
        var file = file
        for entry in entries {
            switch HistoryStore.recording(entry, in: file) {
            case .append(let line): file += line
            case .replace(let all): file = all
            }
        }
        return file
    }

    @Test func everyFieldReadsBackEscapesIncluded() {
        var entry = Self.entry("two\nlines\twith a tab, a \\ and \r", tag: "vol=ume")
        entry.title = "Build\tfinished"
        entry.icon = "/home/me/x=1.png"
        entry.progress = "40!"
        entry.markup = true
        entry.buttons = ["Yes", "Not now"]
        entry.choice = "Not now"
        entry.ending = "button"
        entry.action = true
        entry.preset = "alert"
        let line = HistoryStore.encode(entry)
        #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1 && line.last == UInt8(ascii: "\n"))
        #expect(HistoryStore.read(line).entries == [entry])
    }

    @Test func threeHundredToastsLeaveABoundedHistoryNewestFirst() {
        let entries = (0..<300).map { Self.entry("toast \($0)", time: 1_795_600_000 + $0) }
        let file = Self.record(entries)
        let contents = HistoryStore.read(file)
        #expect(contents.garbage == 0)
        #expect(contents.entries.count <= 2 * HistoryStore.countLimit)
        #expect(file.count <= HistoryStore.byteLimit / 2)
        let listed = HistoryStore.newestFirst(contents)
        #expect(listed.count == HistoryStore.countLimit)
        #expect(listed.map(\.text) == (250..<300).reversed().map { "toast \($0)" })
    }

    @Test func hugeMessagesStayWithinTheFilesBound() {
        // Each the longest a message can be, in characters of many bytes each.
        let huge = String(repeating: "e\u{301}\u{302}\u{303}", count: MessageText.characterLimit)
        let file = Self.record((0..<300).map { Self.entry(huge + "\($0)") })
        #expect(file.count <= HistoryStore.byteLimit / 2)
        let contents = HistoryStore.read(file)
        #expect(contents.garbage == 0 && !contents.entries.isEmpty)
        #expect(contents.entries.allSatisfy { HistoryStore.encode($0).count <= HistoryStore.lineByteLimit })
    }

    @Test func aTaggedToastTakesThePlaceOfTheOlderOnesWithItsTag() {
        let file = Self.record([
            Self.entry("Volume 10", tag: "volume"), Self.entry("Mail"), Self.entry("Volume 20", tag: "volume"),
            Self.entry("Volume 30", tag: "volume"),
        ])
        #expect(HistoryStore.newestFirst(HistoryStore.read(file)).map(\.text) == ["Volume 30", "Mail"])
    }

    @Test(arguments: [
        "garbage without a tab", "t=x\tend=expired\tshown=1\ttext=a", "t=1\tend=expired\tshown=2\ttext=a",
        "t=1\tend=expired\tshown=1", "t=1\tend=\tshown=1\ttext=a", "t=1\tend=expired\tshown=1\ttext=bad \\q escape",
        "t=1\tend=expired\tshown=1\ttext=ends in \\", "t=-5\tend=expired\tshown=1\ttext=a",
        "t=1\tend=expired\tshown=1\t" + Array(repeating: "button=x", count: 9).joined(separator: "\t") + "\ttext=a",
    ])
    func aLineThatDoesNotReadIsSkippedAndCounted(line: String) {
        let good = HistoryStore.encode(Self.entry("kept"))
        let contents = HistoryStore.read(good + Array((line + "\n").utf8) + good)
        #expect(contents.entries.map(\.text) == ["kept", "kept"])
        #expect(contents.garbage == 1)
    }

    @Test func garbageIsSurvivedAndCleanedOutByTheNextRecord() {
        var garbage: [UInt8] = Array("\u{1B}]0;owned\u{7}\n".utf8) + [0xFF, 0xFE, 0x00, 0x0A]
        garbage += [UInt8](repeating: UInt8(ascii: "x"), count: HistoryStore.lineByteLimit + 10) + [0x0A]
        garbage += HistoryStore.encode(Self.entry("survivor"))
        let contents = HistoryStore.read(garbage)
        #expect(contents.entries.map(\.text) == ["survivor"] && contents.garbage == 3)
        guard case .replace(let written) = HistoryStore.recording(Self.entry("new"), in: garbage) else {
            Issue.record("a damaged file is written anew")
            return
        }
        #expect(HistoryStore.read(written) == HistoryStore.Contents(entries: [Self.entry("survivor"), Self.entry("new")], garbage: 0))
    }

    @Test func theEndOfALongerFileSkipsItsFirstPartialLine() {
        let file = Self.record([Self.entry("one"), Self.entry("two"), Self.entry("three")])
        let tail = Array(file.dropFirst(5))
        #expect(HistoryStore.read(tail, cut: true).entries.map(\.text) == ["two", "three"])
        #expect(HistoryStore.recording(Self.entry("four"), in: tail, cut: true) != .append(HistoryStore.encode(Self.entry("four"))))
    }

    @Test func aLineIsOneInertLineWhateverTheEntrySays() {
        var entry = Self.entry("first\nsecond \u{1B}[2J", tag: "vol")
        entry.title = "Title"
        #expect(entry.line(when: "2026-11-25 16:53") == "2026-11-25 16:53  expired     [vol] Title: first second \\x1B[2J")
        entry.shown = false
        entry.ending = "dropped"
        #expect(entry.line(when: "W").hasPrefix("W  dropped (not shown)  [vol]"))
        var pressed = Self.entry("Delete?")
        pressed.ending = "button"
        pressed.choice = "No"
        #expect(pressed.line(when: "W") == "W  button No   Delete?")
    }

    @Test func jsonEscapesEverythingAnotherProgramCouldHaveWritten() {
        #expect(JSONLine.quoted("a\"b\\c\nd\u{1B}\u{7F}\u{9B}\u{2028}é👍") == #""a\"b\\c\nd\u001b\u007f\u009b\u2028é👍""#)
        var entry = Self.entry("hi")
        entry.buttons = ["Yes"]
        #expect(
            entry.json
                == #"{"time":1795600000,"ending":"expired","choice":null,"shown":true,"title":null,"text":"hi","tag":null,"icon":null,"progress":null,"buttons":["Yes"],"action":false,"markup":false,"preset":null}"#
        )
    }

    @Test(arguments: [
        (Outcome.expired, true, true), (.clicked, true, true), (.replaced, true, true), (.signalled(15), true, true),
        (.dropped, false, true), (.dismissed, false, true), (.expired, false, false), (.replaced, false, false),
        (.signalled(15), false, false),
    ])
    func whichEndingsAreKept(outcome: Outcome, shown: Bool, kept: Bool) {
        #expect(HistoryEntry.isKept(outcome, shown: shown) == kept)
    }

    @Test func reshowingGivesTheSameToastBack() throws {
        var configuration = Configuration()
        configuration.tag = "build"
        configuration.action = true
        configuration.preset = "alert"
        let content = ToastContent(
            message: "-n starts with a dash", title: "Build", icon: .success, progress: Progress(parsing: "40!"),
            markup: true, buttons: ["Open"])
        let entry = HistoryEntry(content: content, settings: configuration, outcome: .button(0), shown: true, time: 5)
        #expect(entry.choice == "Open" && entry.ending == "button")
        var builder = ConfigurationBuilder()
        let parsed = try CommandLineParser.parse(entry.arguments)
        try builder.apply(commandLine: parsed.options)
        let again = builder.configuration
        #expect(parsed.words == ["-n starts with a dash"])
        #expect(again.title == "Build" && again.icon == .success && again.progress?.description == "40!")
        #expect(again.markup && again.tag == "build" && again.action && again.preset == "alert" && again.buttons == ["Open"])
    }

    @Test func anApplicationsTransientNotificationIsKeptOut() {
        for (hint, kept) in [(HintValue.boolean(true), false), (.boolean(false), true), (.integer(1), false)] {
            let request = NotificationTests.request(hints: [("transient", hint)])
            #expect(NotificationToast(id: 1, request: request, icon: nil).arguments.contains("--no-history") != kept)
        }
        #expect(!NotificationToast(id: 1, request: NotificationTests.request(), icon: nil).arguments.contains("--no-history"))
    }

    @Test func transientNotificationsAreKeptOut() throws {
        let invocation = try NotifySend.invocation(["-e", "Transient"], newID: 1)
        #expect(invocation.arguments.contains("--no-history"))
        #expect(try !NotifySend.invocation(["Kept"], newID: 1).arguments.contains("--no-history"))
    }
}
