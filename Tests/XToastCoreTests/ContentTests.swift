import Testing

@testable import XToastCore

@Suite("Toast content")
struct ContentTests {
    // MARK: Icons

    @Test(
        "--icon: the four built-in names, a path when it has a /, else a freedesktop icon name",
        arguments: [
            ("success", Icon.success), ("error", .error), ("info", .info), ("warning", .warning),
            ("/x/y.png", .file("/x/y.png")), ("./done.png", .file("./done.png")), ("icons/a b.png", .file("icons/a b.png")),
            ("dialog-information", .named("dialog-information")), ("audio-volume-high", .named("audio-volume-high")),
            ("face_smile.2", .named("face_smile.2")), ("Success", .named("Success")),
        ])
    func icons(text: String, expected: Icon) {
        #expect(Icon(parsing: text) == expected)
    }

    @Test(
        "An empty icon, or a name with characters no icon name has, is rejected",
        arguments: ["", "bad name!", "dialog information", "a*", "icon\n", "ok?"])
    func badIcons(text: String) {
        #expect(Icon(parsing: text) == nil)
    }

    // MARK: Progress

    @Test(
        "--progress: a percentage from 0 to 200, N! in the alternate colour",
        arguments: [
            ("40", Progress(percent: 40)), ("40.5", Progress(percent: 40.5)), ("40!", Progress(percent: 40, alternate: true)),
            ("0", Progress(percent: 0)), ("200", Progress(percent: 200)), ("100", Progress(percent: 100)),
            ("0!", Progress(percent: 0, alternate: true)), ("200!", Progress(percent: 200, alternate: true)),
            (".5", Progress(percent: 0.5)),
        ])
    func progress(text: String, expected: Progress) {
        #expect(Progress(parsing: text) == expected)
    }

    @Test(
        "Anything else is rejected: out of range, not a plain decimal, or only the !",
        arguments: ["-1", "201", "200.5", "abc", "", "!", "!!", "40!!", "!40", "40 ", " 40", "4e1", "0x10", "nan", "inf", "1.2.3", "40%"])
    func badProgress(text: String) {
        #expect(Progress(parsing: text) == nil)
    }

    @Test(
        "The bar's parts: filled up to 100, then the overflow past it, each 0...1",
        arguments: [(0.0, 0.0, 0.0), (40, 0.4, 0), (100, 1, 0), (150, 1, 0.5), (200, 1, 1)])
    func fractions(percent: Double, filled: Double, overflow: Double) {
        let fractions = Progress(percent: percent).fractions
        #expect(abs(fractions.filled - filled) < 1e-12)
        #expect(abs(fractions.overflow - overflow) < 1e-12)
        // The alternate colour changes nothing but the colour.
        #expect(Progress(percent: percent, alternate: true).fractions == fractions)
    }

    // MARK: Updates from standard input and --run

    @Test("A number on standard input sets the progress, other text the message; a line that changes nothing is nil")
    func updatedByLine() throws {
        let content = ToastContent(message: "Volume", progress: Progress(percent: 40))
        #expect(content.updated(byLine: "60")?.progress == Progress(percent: 60))
        #expect(content.updated(byLine: " 60! ")?.progress == Progress(percent: 60, alternate: true))
        let renamed = try #require(content.updated(byLine: "Muted"))
        #expect(renamed.message == "Muted")
        #expect(renamed.progress == content.progress)
        #expect(content.updated(byLine: "40") == nil)
        #expect(content.updated(byLine: "Volume") == nil)
        #expect(content.updated(byLine: "") == nil)
        #expect(content.updated(byLine: "   ") == nil)
    }

    @Test(
        "A --run toast ends in success or error, naming the command and how it ended",
        arguments: [
            (Int32(0), Icon.success, "Backup\nrsync finished"), (1, .error, "Backup\nrsync failed (exit 1)"),
            (143, .error, "Backup\nrsync was killed by signal 15"),
        ])
    func finished(status: Int32, icon: Icon, message: String) {
        let running = ToastContent(message: "Backup", progress: Progress(percent: 30), spinner: true)
        let done = running.finished(command: "rsync -a src/ backup/", status: status)
        #expect(done.icon == icon)
        #expect(done.message == message)
        #expect(!done.spinner)
        #expect(done.progress == nil)
    }
}
