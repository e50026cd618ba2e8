import Testing

@testable import XToastCore

/// Applications' notifications (the Desktop Notifications Specification) as toasts: the command
/// line each becomes, the markup subset, pictures, rules, and how each end is reported.
@Suite("Notifications")
struct NotificationTests {
    static func request(
        summary: String = "Summary", body: String = "", actions: [String] = [], hints: [(String, HintValue)] = [],
        timeout: Int32 = -1, app: String = "app"
    ) -> NotificationRequest {
        var request = NotificationRequest()
        (request.summary, request.body, request.actions, request.expireTimeout, request.appName) = (summary, body, actions, timeout, app)
        for (name, value) in hints { request.hints.add(name, value) }
        return request
    }

    static let start = start(app: "app")

    /// The command line's options before the text and the actions, for an application that
    /// calls itself `app` ("": none, and no name in a summary after quiet).
    static func start(app: String) -> [String] {
        ["--print-outcome", "--preset", "normal", "--tag", "fdn-7", "--markup"] + (app.isEmpty ? [] : ["--app", app])
    }

    @Test func summaryAndBodyAreTitleAndMessage() {
        let toast = NotificationToast(id: 7, request: Self.request(summary: "Mail & more", body: "<b>Hi</b> there"), icon: nil)
        #expect(toast.arguments == Self.start + ["--title", "Mail &amp; more", "--", "<b>Hi</b> there"])
        #expect(toast.tag == "fdn-7")
    }

    @Test func aSummaryAloneIsTheMessageAndNothingAtAllIsTheAppsName() {
        #expect(
            NotificationToast(id: 7, request: Self.request(summary: "Only <this>"), icon: nil).arguments == Self.start + [
                "--", "Only &lt;this&gt;",
            ])
        #expect(NotificationToast(id: 7, request: Self.request(summary: " ", body: ""), icon: nil).arguments == Self.start + ["--", "app"])
        #expect(
            NotificationToast(id: 7, request: Self.request(summary: "", body: "", app: ""), icon: nil).arguments == Self.start(app: "") + [
                "--", "Notification",
            ])
    }

    @Test(
        "expire_timeout: -1 the toast's own, 0 until closed, else milliseconds (at most a day)",
        arguments: [
            (Int32(-1), [String]()), (0, ["--duration", "sticky"]), (1500, ["--duration", "1500ms"]),
            (Int32.max, ["--duration", "86400000ms"]),
        ] as [(Int32, [String])]
    )
    func expireTimeout(timeout: Int32, expected: [String]) {
        let toast = NotificationToast(id: 7, request: Self.request(timeout: timeout), icon: nil)
        #expect(toast.arguments == Self.start + expected + ["--", "Summary"])
    }

    /// The configuration the toast of `toast` gets, put together as the command does: the
    /// preset named on its command line, then the config file `file`, then its command line.
    static func configuration(of arguments: [String], file: String = "") throws -> Configuration {
        let options = try CommandLineParser.parse(arguments).options
        var commandLineOnly = ConfigurationBuilder()
        try commandLineOnly.apply(commandLine: options)
        let preset = commandLineOnly.configuration.preset
        var builder = ConfigurationBuilder()
        builder.apply(builtInPreset: preset ?? "toast")
        builder.apply(file: ConfigFile(parsing: file), path: "config", preset: preset)
        try builder.apply(commandLine: options)
        return builder.configuration
    }

    @Test(
        "An application's notification without expire_timeout holds 10 s, as dunst's do; a rule's or a [normal] section's duration wins",
        arguments: [
            (Int32(-1), 1, "", DisplayDuration.seconds(10)), (-1, 0, "", .seconds(10)), (-1, 2, "", .sticky), (1500, 1, "", .seconds(1.5)),
            (0, 1, "", .sticky), (-1, 1, "[rule chat]\napp = app\nduration = 4\n", .seconds(4)),
            (-1, 1, "[rule chat]\napp = other\nduration = 4\n", .seconds(10)), (1500, 1, "[rule chat]\nduration = 4\n", .seconds(1.5)),
            (-1, 1, "[normal]\nduration = auto\n", .automatic), (-1, 1, "duration = 3\n", .seconds(3)),
            (-1, 2, "[rule urgent]\nurgency = critical\nduration = 20\n", .seconds(20)),
        ] as [(Int32, UInt8, String, DisplayDuration)])
    func defaultDuration(timeout: Int32, urgency: UInt8, file: String, expected: DisplayDuration) throws {
        let rules = NotificationRule.rules(in: ConfigFile(parsing: file)).rules
        let request = Self.request(body: String(repeating: "x", count: 30), hints: [("urgency", .byte(urgency))], timeout: timeout)
        let toast = NotificationToast(id: 7, request: request, icon: nil, rules: rules)
        #expect(try Self.configuration(of: toast.arguments, file: file).duration == expected, "\(toast.arguments)")
    }

    @Test("A script's toast keeps its automatic duration")
    func scriptsKeepTheAutomaticDuration() throws {
        #expect(try Self.configuration(of: ["--", String(repeating: "x", count: 30)]).duration == .automatic)
        #expect(DisplayDuration.automatic.hold(for: String(repeating: "x", count: 30)) == 2.3)
    }

    @Test func hintsPickPresetProgressTagAndIcon() {
        let request = Self.request(hints: [
            ("urgency", .byte(2)), ("value", .integer(140)), ("x-dunst-stack-tag", .string("volume")), ("category", .string("device")),
        ])
        let toast = NotificationToast(id: 7, request: request, icon: "/tmp/x.png")
        #expect(
            toast.arguments == [
                "--print-outcome", "--preset", "critical", "--tag", "volume", "--markup", "--app", "app", "--icon", "/tmp/x.png",
                "--progress",
                "100", "--", "Summary",
            ])
    }

    @Test(
        "x-kde-origin-name leads the title; x-kde-display-appname takes the app name's place where it shows",
        arguments: [
            ("Summary", "Body", "app", nil, "example.com", ["--title", "example.com · Summary", "--", "Body"]),
            ("", "Body", "app", nil, "example.com", ["--title", "example.com", "--", "Body"]),
            ("Summary", "", "app", nil, "example.com", ["--", "example.com · Summary"]),
            ("", "", "app", nil, "example.com", ["--", "app · example.com"]),
            ("", "", "chromium", "Chromium", nil, ["--", "Chromium"]), ("", "", "app", " ", nil, ["--", "app"]),
            ("", "", "", "Web", "a.org", ["--", "Web · a.org"]), ("", "", "", nil, " ", ["--", "Notification"]),
            ("Summary", "Body", "app", "Shown", nil, ["--title", "Summary", "--", "Body"]),
            ("Hi", "", "app", nil, "<b>x</b> & y", ["--", "&lt;b&gt;x&lt;/b&gt; &amp; y · Hi"]),
        ] as [(String, String, String, String?, String?, [String])])
    func source(summary: String, body: String, app: String, display: String?, origin: String?, expected: [String]) {
        var hints: [(String, HintValue)] = []
        if let display { hints.append(("x-kde-display-appname", .string(display))) }
        if let origin { hints.append(("x-kde-origin-name", .string(origin))) }
        let request = Self.request(summary: summary, body: body, hints: hints, app: app)
        // The name shown is the app's too in a summary after quiet.
        let name = display?.contains { $0 != " " } == true ? display! : app
        #expect(NotificationToast(id: 7, request: request, icon: nil).arguments == Self.start(app: name) + expected)
    }

    @Test("The source is one line, bounded, of text only; a hint of another type is named and ignored")
    func sourceIsBoundedAndPlain() {
        let long = String(repeating: "w", count: 10_000)
        var request = Self.request(
            summary: "", hints: [("x-kde-display-appname", .string("Line\none\u{7}")), ("x-kde-origin-name", .string(long))])
        #expect(NotificationToast.source(of: request) == "Line one · " + String(repeating: "w", count: NotificationToast.sourceLimit))
        request = Self.request(hints: [("x-kde-origin-name", .integer(5)), ("x-kde-display-appname", .boolean(true))])
        #expect(request.hints.mistyped == ["x-kde-origin-name", "x-kde-display-appname"])
        #expect(NotificationToast.source(of: request) == "app")
        // Rules match the name the application sends, not the one it shows.
        let rule = NotificationRule(name: "x", matches: ["app": "chromium"])
        var shown = Self.request(hints: [("x-kde-display-appname", .string("Web App"))], app: "chromium")
        #expect(rule.matches(shown, urgency: "normal"))
        shown.appName = "Web App"
        #expect(!rule.matches(shown, urgency: "normal"))
    }

    @Test func hintsOfTheWrongTypeAreIgnoredAndNamed() {
        var hints = NotificationHints()
        hints.add("urgency", .string("critical"))
        hints.add("value", .string("50"))
        hints.add("image-data", .integer(3))
        hints.add("x-unknown", .string("whatever"))
        hints.add("urgency", .integer(9))
        #expect(hints.urgency == nil && hints.value == nil && hints.image == nil)
        #expect(hints.mistyped == ["urgency", "value", "image-data", "urgency"])
    }

    @Test func actionsAreButtonsAndTheDefaultIsAClickOnTheBody() {
        let toast = NotificationToast(
            id: 7, request: Self.request(actions: ["default", "", "reply", "Reply", "later", "", "dup", "Reply", "odd"]), icon: nil)
        #expect(toast.arguments == Self.start + ["--button", "Reply", "--button", "later", "--action", "--", "Summary"])
        #expect(toast.buttonKeys == ["reply", "later"])
        #expect(toast.hasDefaultAction)
    }

    @Test func tenThousandActionsAreEightButtons() {
        let actions = (0..<10_000).flatMap { ["key\($0)", "Label \($0)"] }
        let toast = NotificationToast(id: 7, request: Self.request(actions: actions), icon: nil)
        #expect(toast.buttonKeys.count == NotificationToast.buttonLimit)
        #expect(toast.arguments.filter { $0 == "--button" }.count == 8)
    }

    @Test("An inline-reply is the reply button, last, with the placeholder hint; it takes one of the eight places")
    func anInlineReplyIsTheReplyButton() {
        var request = Self.request(actions: ["inline-reply", "", "later", "Later"])
        request.hints.add("x-kde-reply-placeholder-text", .string("Answer\nAna…"))
        let toast = NotificationToast(id: 7, request: request, icon: nil)
        #expect(
            toast.arguments
                == Self.start + ["--button", "Later", "--reply", "Reply", "--reply-placeholder", "Answer Ana…", "--", "Summary"])
        #expect(toast.buttonKeys == ["later"])
        let many = (0..<20).flatMap { ["key\($0)", "Label \($0)"] } + ["inline-reply", "Answer"]
        let crowded = NotificationToast(id: 7, request: Self.request(actions: many), icon: nil)
        #expect(crowded.arguments.filter { $0 == "--button" }.count == NotificationToast.buttonLimit - 1)
        #expect(crowded.arguments.contains("--reply"))
        // As the command line takes them: eight buttons in all.
        var builder = ConfigurationBuilder()
        #expect(throws: Never.self) { try builder.apply(commandLine: CommandLineParser.parse(crowded.arguments).options) }
        #expect(builder.configuration.buttonRow.labels.count == NotificationToast.buttonLimit)
    }

    @Test("A reply is reported as the text after its word, and answered as an action is")
    func aReplyIsReported() {
        let toast = NotificationToast(id: 7, request: Self.request(actions: ["inline-reply", "Reply"]), icon: nil)
        let report = NotificationChild.Report(parsing: "queued\nreplied\nSee you\ntime=5\n")
        #expect(report.outcome == ["replied", "See you"] && report.clickTime == 5)
        #expect(toast.reply(in: report) == "See you")
        #expect(toast.ending(report, closedByCall: false) == (nil, .closed(.dismissed)))
        #expect(toast.reply(in: NotificationChild.Report(parsing: "button\nReply\n")) == nil)
    }

    @Test(
        "How a toast's end is reported",
        arguments: [
            ("expired\n", false, nil, NotificationToast.End.kept), ("clicked\n", false, nil, .closed(.dismissed)),
            ("action\n", false, "default", .closed(.dismissed)), ("button\nReply\n", false, "reply", .closed(.dismissed)),
            ("dismissed\n", false, nil, .closed(.dismissed)), ("dismissed\n", true, nil, .closed(.closedByCall)),
            ("replaced\n", false, nil, .closed(.undefined)), ("", false, nil, .closed(.undefined)), ("", true, nil, .closed(.closedByCall)),
        ] as [(String, Bool, String?, NotificationToast.End)]
    )
    func endings(output: String, closedByCall: Bool, action: String?, end: NotificationToast.End) {
        let toast = NotificationToast(id: 7, request: Self.request(actions: ["default", "Open", "reply", "Reply"]), icon: nil)
        let ending = toast.ending(NotificationChild.Report(parsing: output), closedByCall: closedByCall)
        #expect(ending.action == action)
        #expect(ending.end == end)
    }

    @Test("Kept or closed: the server's time keeps it, the application's own time or transient closes it; resident stays after an action")
    func keeping() {
        var request = Self.request(actions: ["open", "Open"])
        #expect(NotificationToast(id: 1, request: request, icon: nil).whenExpired == .kept)
        request.expireTimeout = 4000
        #expect(NotificationToast(id: 1, request: request, icon: nil).whenExpired == .closed)
        request.expireTimeout = -1
        request.hints.transient = true
        #expect(NotificationToast(id: 1, request: request, icon: nil).whenExpired == .closed)
        request.hints.transient = false
        request.hints.resident = true
        let resident = NotificationToast(id: 1, request: request, icon: nil)
        #expect(resident.ending(NotificationChild.Report(parsing: "button\nOpen\n"), closedByCall: false) == ("open", .kept))
    }

    @Test(
        "What a toast process reports: queued first, the outcome's lines by their place, the click's time last",
        arguments: [
            ("queued\naction\ntime=123\n", NotificationChild.Report(queued: true, outcome: ["action"], clickTime: 123)),
            ("queued\nbutton\ntime=5\ntime=9\n", NotificationChild.Report(queued: true, outcome: ["button", "time=5"], clickTime: 9)),
            ("button\ntime=5\n", NotificationChild.Report(outcome: ["button", "time=5"])),
            ("expired\n", NotificationChild.Report(outcome: ["expired"])), ("queued\n", NotificationChild.Report(queued: true)),
            ("clicked\ntime=99999999999\n", NotificationChild.Report(outcome: ["clicked", "time=99999999999"])),
            ("", NotificationChild.Report()),
        ]
    )
    func childReports(output: String, report: NotificationChild.Report) {
        #expect(NotificationChild.Report(parsing: output) == report)
    }

    @Test func commandLinesGoToTheChildWhole() {
        let arguments = ["--title", "Mail", "--", "", "über ✓", "a\u{0}b"]
        #expect(NotificationChild.decode(NotificationChild.encode(arguments)) == ["--title", "Mail", "--", "", "über ✓", "ab"])
        #expect(NotificationChild.decode([]) == [])
        #expect(NotificationChild.decode(Array("cut short".utf8)) == nil)
        #expect(NotificationChild.decode([UInt8](repeating: 0, count: NotificationChild.argumentsByteLimit + 1)) == nil)
    }

    @Test func anActivationTokenIsAStartupNotificationIDWithTheClicksTime() {
        let token = NotificationChild.activationToken(service: 42, id: 7, time: 123_456)
        #expect(token.hasSuffix("_TIME123456"))
        #expect(token != NotificationChild.activationToken(service: 42, id: 8, time: 123_456))
    }

    @Test func hugeTextIsBounded() {
        let request = Self.request(summary: String(repeating: "s", count: 100_000), body: String(repeating: "<b>", count: 100_000))
        let toast = NotificationToast(id: 7, request: request, icon: nil)
        #expect(toast.arguments.allSatisfy { $0.count <= NotificationMarkup.outputLimit + 200 })
    }
}

@Suite("Notification markup")
struct NotificationMarkupTests {
    @Test(
        "The spec's subset is kept or made text; nothing else gets through",
        arguments: [
            ("plain", "plain"), ("<b>bold</b> <i>it</i> <u>under</u>", "<b>bold</b> <i>it</i> <u>under</u>"),
            ("<a href=\"https://x\">link</a>", "<a href=\"https://x\">link</a>"),
            ("<A href='http://x/?a=1&amp;b=2'>q</A>", "<a href=\"http://x/?a=1&amp;b=2\">q</a>"),
            ("<a href=\"file:///etc/passwd\">file</a>", "file"), ("<a href=\"javascript:alert(1)\">js</a>", "js"),
            ("<a href=\"https://x/&quot;onclick\">q</a>", "q"), ("<a name=\"top\">anchor</a>", "anchor"),
            ("<a href=\"https://x\">out <a href=\"https://y\">in</a> out</a>", "<a href=\"https://x\">out in</a> out"),
            ("<b><a href=\"https://x\">crossed</b></a>", "<b><a href=\"https://x\">crossed</a></b>"),
            ("<a href=\"https://x\">open", "<a href=\"https://x\">open</a>"),
            ("<img src=\"x.png\" alt=\"a &amp; b\"/>", "a &amp; b"),
            ("line<br>break<br/>", "line\nbreak\n"), ("<span size=\"99999\">big</span>", "&lt;span size=\"99999\"&gt;big&lt;/span&gt;"),
            ("<b>open", "<b>open</b>"), ("<b><i>crossed</b></i>", "<b><i>crossed</i></b>"), ("</u>stray", "stray"),
            ("AT&T <3 a>b", "AT&amp;T &lt;3 a&gt;b"),
            ("&amp; &lt; &#233; &#x41; &#0; &bogus;", "&amp; &lt; &#233; &#x41; &amp;#0; &amp;bogus;"),
            ("<B>upper</B>", "<b>upper</b>"), ("<b onclick=x>attr</b>", "&lt;b onclick=x&gt;attr"),
        ]
    )
    func sanitize(body: String, expected: String) {
        #expect(NotificationMarkup.sanitize(body) == expected)
    }

    /// Swift's `Character` joins a `<` with the combining mark, joiner or variation selector
    /// after it into one grapheme: markup is read scalar by scalar, so none hides a `<`, `>` or `&`.
    @Test(
        "A mark, joiner or variation selector after <, > or & hides none of them",
        arguments: [
            ("<\u{301}b>x", "&lt;\u{301}b&gt;x"), ("<\u{200D}span size='99999'>", "&lt;\u{200D}span size='99999'&gt;"),
            ("<\u{FE0F}", "&lt;\u{FE0F}"), (">\u{301}", "&gt;\u{301}"), ("&\u{301}amp;", "&amp;\u{301}amp;"),
            ("&amp;\u{301}", "&amp;\u{301}"), ("<b\u{301}>x</b>", "&lt;b\u{301}&gt;x"), ("<b>x</b\u{20E3}>", "<b>x&lt;/b\u{20E3}&gt;</b>"),
            ("<img alt=\"<\u{301}&\u{200D}\"/>", "&lt;\u{301}&amp;\u{200D}"), ("<b>\u{301}</b>", "<b>\u{301}</b>"),
        ])
    func marksAfterMarkup(body: String, expected: String) {
        #expect(NotificationMarkup.sanitize(body).unicodeScalars.elementsEqual(expected.unicodeScalars))
    }

    /// Every `<` of the output opens or closes one of the sanitiser's own tags, every `>` ends
    /// one, every `&` starts an entity: whatever the body, Pango reads it as markup.
    @Test("Only the sanitiser's own markup reaches Pango, whatever follows <, > and &")
    func onlyOwnMarkup() {
        let marks = ["", "\u{301}", "\u{200D}", "\u{FE0F}", "\u{20E3}", "\u{1F3FD}", "\u{E0100}", "\u{0}"]
        let starts = ["<", ">", "&", "</", "<b", "</b", "<br", "&amp", "&#65", "<img alt='", "<a href=\""]
        for start in starts {
            for mark in marks {
                for body in [start + mark, "<b>" + start + mark + "x>;</b>", start + mark + ">", "<img alt=\"" + start + mark + "\">"] {
                    let output = NotificationMarkup.sanitize(body)
                    #expect(Self.isOnlyOwnMarkup(output), "\(Array(body.unicodeScalars)) gave \(Array(output.unicodeScalars))")
                }
                #expect(Self.isOnlyOwnMarkup(NotificationMarkup.escape(start + mark)))
            }
        }
    }

    static func isOnlyOwnMarkup(_ markup: String) -> Bool {
        let tags = ["<b>", "<i>", "<u>", "</b>", "</i>", "</u>", "</a>"].map { Array($0.unicodeScalars) }
        let scalars = Array(markup.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let rest = scalars[index...]
            switch scalars[index] {
            case "<":
                // A link: its URL one that may be opened, with its `&` escaped.
                if rest.starts(with: "<a href=\"".unicodeScalars), let close = rest.dropFirst(9).firstIndex(of: "\""),
                    scalars.count > close + 1, scalars[close + 1] == ">"
                {
                    let url = String(String.UnicodeScalarView(scalars[(index + 9)..<close]))
                    guard Link.openable(url.replacing("&amp;", with: "&")) != nil, !url.replacing("&amp;", with: "").contains("&")
                    else { return false }
                    index = close + 2
                    continue
                }
                guard let tag = tags.first(where: { rest.starts(with: $0) }) else { return false }
                index += tag.count
            case "&":
                guard let semicolon = rest.prefix(12).firstIndex(of: ";") else { return false }
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon]))
                let numeric =
                    name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                guard ["amp", "lt", "gt", "quot", "apos"].contains(name) || numeric != nil else { return false }
                index = semicolon + 1
            case ">": return false
            default: index += 1
            }
        }
        return true
    }

    @Test("A notification's sanitised link reads back as the same link")
    func roundTrip() {
        let body = NotificationMarkup.sanitize("Open <a href=\"https://example.com/?a=1&amp;b=2\">the page</a>")
        #expect(body == "Open <a href=\"https://example.com/?a=1&amp;b=2\">the page</a>")
        let linked = LinkedMarkup(body)
        #expect(linked.links == ["https://example.com/?a=1&b=2"])
        #expect(linked.markup == "Open \(LinkedMarkupTests.u)the page\(LinkedMarkupTests.e)")
    }

    @Test func outputIsBoundedAndBalanced() {
        let output = NotificationMarkup.sanitize(String(repeating: "<b><i>x", count: 50_000))
        #expect(output.count <= NotificationMarkup.outputLimit + 200)
        #expect(output.hasSuffix("</i></b>") || output.hasSuffix("</b>"))
        // Long links, their `&` written out five times as long: one that does not fit keeps its text.
        let link = "<a href=\"https://x/?" + String(repeating: "&amp;", count: 180) + "\">x</a>"
        let links = NotificationMarkup.sanitize(String(repeating: "<b>" + link, count: 1000))
        #expect(links.unicodeScalars.count <= NotificationMarkup.outputLimit + 200)
        #expect(LinkedMarkup(links).links.count == 3)
    }
}

@Suite("Notification pictures")
struct NotificationImageTests {
    static func image(
        width: Int32 = 2, height: Int32 = 2, rowstride: Int32 = 8, alpha: Bool = true, bits: Int32 = 8, channels: Int32 = 4, count: Int = 16
    ) -> NotificationImage {
        NotificationImage(
            width: width, height: height, rowstride: rowstride, hasAlpha: alpha, bitsPerSample: bits, channels: channels,
            bytes: [UInt8](repeating: 0x80, count: count))
    }

    @Test func sizesMustAgreeWithTheBytes() {
        #expect(throws: Never.self) { try Self.image().check() }
        // GdkPixbuf leaves the last row unpadded.
        #expect(throws: Never.self) { try Self.image(width: 3, rowstride: 12, alpha: false, channels: 3, count: 12 + 9).check() }
        for bad in [
            Self.image(count: 15), Self.image(count: 10_000), Self.image(width: 0), Self.image(height: -1), Self.image(width: 5000),
            Self.image(rowstride: 4), Self.image(bits: 16), Self.image(channels: 3), Self.image(alpha: false),
            Self.image(width: 4096, height: 4096, rowstride: 16384, count: 16),
        ] {
            #expect(throws: NotificationImage.Problem.self) { try bad.check() }
        }
    }

    @Test func pixelsArePremultipliedARGB() throws {
        let image = NotificationImage(
            width: 2, height: 1, rowstride: 8, hasAlpha: true, bitsPerSample: 8, channels: 4, bytes: [255, 0, 0, 255, 0, 255, 0, 128])
        #expect(try image.premultipliedARGB() == [0xFFFF_0000, 0x8000_8000])
        let opaque = NotificationImage(
            width: 1, height: 1, rowstride: 3, hasAlpha: false, bitsPerSample: 8, channels: 3, bytes: [1, 2, 3])
        #expect(try opaque.premultipliedARGB() == [0xFF01_0203])
    }
}

@Suite("Notification rules")
struct NotificationRuleTests {
    static let file = ConfigFile(
        parsing: """
            position = top
            [rule mail]
            app = Thunderbird
            preset = alert
            position = top-right
            [rule urgent]
            urgency = critical
            background = #b00020e6
            [rule devices]
            category = device
            radius = lots
            colour = red
            [critical]
            duration = 5
            """)

    @Test func rulesAreReadInTheFilesOrderWithTheirProblems() {
        let (rules, problems) = NotificationRule.rules(in: Self.file)
        #expect(rules.map(\.name) == ["mail", "urgent", "devices"])
        #expect(rules[0].matches == ["app": "thunderbird"] && rules[0].preset == "alert")
        #expect(rules[0].settings == [.init(key: "position", value: "top-right")])
        #expect(problems.map(\.line) == [11, 12])
    }

    @Test func matchingRulesPickThePresetAndSettings() {
        let (rules, _) = NotificationRule.rules(in: Self.file)
        var request = NotificationTests.request(app: "thunderbird")
        request.hints.add("urgency", .byte(2))
        request.hints.add("category", .string("device.added"))
        let toast = NotificationToast(id: 7, request: request, icon: nil, rules: rules)
        #expect(
            toast.arguments == [
                "--print-outcome", "--preset", "alert", "--tag", "fdn-7", "--markup", "--app", "thunderbird", "--position", "top-right",
                "--background", "#b00020e6",
                "--", "Summary",
            ])
        let other = NotificationToast(id: 7, request: NotificationTests.request(app: "Firefox"), icon: nil, rules: rules)
        #expect(other.arguments == NotificationTests.start(app: "Firefox") + ["--", "Summary"])
    }

    @Test(arguments: [
        ("*backup*", "Nightly Backup done", true), ("*backup*", "back up", false), ("build ?", "build 7", true),
        ("build ?", "build 17", false), ("*", "", true), ("a*b*c", "aXbYc", true), ("a*b*c", "aXbY", false),
        ("*a*a*a*a*a*b", String(repeating: "a", count: 4000), false),
    ])
    func summariesMatchGlobs(glob: String, summary: String, expected: Bool) {
        let rule = NotificationRule(name: "x", matches: ["summary": glob])
        var request = NotificationRequest()
        request.summary = summary
        #expect(rule.matches(request, urgency: "normal") == expected)
    }

    @Test func aBodyMatchesAsPlainText() {
        let rule = NotificationRule(name: "x", matches: ["body": "*disk full*"])
        var request = NotificationRequest()
        request.body = "<b>Disk</b> FULL on /home"
        #expect(rule.matches(request, urgency: "normal"))
    }

    @Test func popupAndDropSayWhatBecomesOfAMatch() {
        let file = ConfigFile(
            parsing: """
                [rule backups]
                summary = *backup*
                popup = false
                [rule noisy]
                app = Spammer
                drop = yes
                [rule bad]
                popup = maybe
                summary = \(String(repeating: "*", count: 300))
                """)
        let (rules, problems) = NotificationRule.rules(in: file)
        #expect(rules.map(\.arrival) == [.quiet, .dropped, nil])
        #expect(problems.map(\.line) == [8, 9])
        var backup = NotificationRequest()
        backup.summary = "Backup finished"
        #expect(NotificationToast(id: 1, request: backup, icon: nil, rules: rules).arrival == .quiet)
        var spam = NotificationRequest()
        spam.appName = "spammer"
        #expect(NotificationToast(id: 2, request: spam, icon: nil, rules: rules).arrival == .dropped)
        #expect(NotificationToast(id: 3, request: NotificationRequest(), icon: nil, rules: rules).arrival == .shown)
    }

    @Test(arguments: [
        ("notify-me", ["notify-me"]), ("sh -c 'echo \"$XTOAST_SUMMARY\" > f'", ["sh", "-c", "echo \"$XTOAST_SUMMARY\" > f"]),
        (#"a\ b "c \" d" ''"#, ["a b", "c \" d", ""]), ("  spaced   out  ", ["spaced", "out"]),
    ])
    func commandLinesSplitAsAShellWould(line: String, words: [String]) {
        #expect(CommandWords.split(line) == words)
    }

    @Test(arguments: ["'open", "back\\", "", "   ", String(repeating: "w ", count: 65), String(repeating: "x", count: 5000)])
    func badCommandLinesAreRefused(line: String) {
        #expect(CommandWords.split(line) == nil)
    }

    @Test func aRulesCommandIsToldTheNotificationsFields() {
        let (rules, problems) = NotificationRule.rules(
            in: ConfigFile(parsing: "[rule deploy]\nsummary = *deploy*\nrun = notify-me --loud\n[rule bad]\nrun = 'unclosed\n"))
        #expect(problems.map(\.line) == [5])
        var request = NotificationRequest()
        (request.appName, request.summary, request.body) = ("CI", "Deploy done", "<b>all</b> green")
        request.hints.category = "x.ci"
        let toast = NotificationToast(id: 9, request: request, icon: nil, rules: rules)
        #expect(toast.commands == [["notify-me", "--loud"]])
        #expect(
            toast.commandEnvironment == [
                "XTOAST_ID=9", "XTOAST_APP=CI", "XTOAST_SUMMARY=Deploy done", "XTOAST_BODY=all green", "XTOAST_URGENCY=normal",
                "XTOAST_CATEGORY=x.ci",
            ])
        // No match, no command and nothing prepared for one.
        let other = NotificationToast(id: 10, request: NotificationRequest(), icon: nil, rules: rules)
        #expect(other.commands.isEmpty && other.commandEnvironment.isEmpty)
    }

    @Test(arguments: [
        ("message-new-instant", Sound.named("message-new-instant")), ("/usr/share/sounds/a.oga", .file("/usr/share/sounds/a.oga")),
        ("file:///tmp/a%20b.oga", .file("/tmp/a b.oga")), ("../../etc/passwd", nil), ("relative/file.oga", nil), ("", nil),
        (".hidden", nil), ("bell; rm -rf", nil), ("file://elsewhere/a.oga", nil), (String(repeating: "a", count: 65), nil),
    ])
    func soundsAreANameOrAnAbsoluteFile(text: String, sound: Sound?) {
        #expect(Sound(parsing: text) == sound)
    }

    @Test func anApplicationsSoundUnlessItSuppressesItOrIsTransientAndARuleWins() {
        func arguments(_ hints: [(String, HintValue)], rules: [NotificationRule] = []) -> [String] {
            var request = NotificationRequest()
            request.summary = "S"
            for (name, value) in hints { request.hints.add(name, value) }
            return NotificationToast(id: 1, request: request, icon: nil, rules: rules).arguments
        }
        #expect(arguments([("sound-name", .string("message-new-instant"))]).contains(["--sound", "message-new-instant"]))
        // A file wins over a name, as the spec orders them.
        #expect(arguments([("sound-name", .string("bell")), ("sound-file", .string("/s.oga"))]).contains(["--sound", "/s.oga"]))
        #expect(!arguments([("sound-name", .string("bell")), ("suppress-sound", .boolean(true))]).contains("--sound"))
        #expect(!arguments([("sound-name", .string("bell")), ("transient", .boolean(true))]).contains("--sound"))
        #expect(!arguments([("sound-name", .string("bad name!"))]).contains("--sound"))
        // A rule's sound comes after: the toast's command line takes the last.
        let rule = NotificationRule(name: "chat", settings: [.init(key: "sound", value: "complete")])
        let line = arguments([("sound-name", .string("bell"))], rules: [rule])
        #expect(line.lastIndex(of: "--sound").map { line[$0 + 1] } == "complete")
    }

    @Test func printConfigExplainsWhichRulesMatchAndWhatTheyDo() {
        let file = ConfigFile(
            parsing: """
                [rule backups]
                summary = *backup*
                popup = false
                [rule mail]
                app = Thunderbird
                preset = alert
                [rule deploy]
                summary = *deploy*
                run = sh -c 'echo "$XTOAST_SUMMARY"'
                """)
        let rules = NotificationRule.rules(in: file).rules
        var request = NotificationRequest()
        (request.appName, request.summary) = ("Thunderbird", "Nightly backup")
        #expect(
            NotificationRule.explanation(of: rules, for: request) == [
                "# rule backups: matches: popup = false", "# rule mail: matches: preset = alert",
                "# rule deploy: does not match (summary)",
                "# a notification from Thunderbird is kept unseen, in the centre and the history",
            ])
        (request.appName, request.summary) = ("CI", "Deploy done")
        #expect(
            NotificationRule.explanation(of: rules, for: request).suffix(2) == [
                #"# rule deploy: matches: run = sh -c 'echo "$XTOAST_SUMMARY"'"#, "# a notification from CI shows (preset normal)",
            ])
    }

    @Test func aCategoryMatchesItsSubcategories() {
        let rule = NotificationRule(name: "x", matches: ["category": "email"])
        var request = NotificationRequest()
        for (category, expected) in [("email", true), ("email.arrived", true), ("emails", false), ("im", false)] {
            request.hints.category = category
            #expect(rule.matches(request, urgency: "normal") == expected, "\(category)")
        }
    }
}
