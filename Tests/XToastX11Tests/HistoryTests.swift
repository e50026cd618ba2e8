import CX11
import Foundation
import Testing

/// The history (`--history`, `--reshow`, `--no-history`), each test with a state folder of its
/// own, on a private Xvfb.
@Suite("History")
struct HistoryTests {
    static let quick = ["--duration", "0", "--animation", "none", "--idle", "0"]

    /// A state folder of the test's own, and the environment that points xtoast at it.
    static func stateFolder() throws -> (path: String, environment: [String: String?]) {
        let folder = temporaryPath("-state")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return (folder, ["XDG_STATE_HOME": folder])
    }

    @Test func threeToastsAreListedNewestFirstATransientOneIsNotAndReshowShowsTheLastAgain() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let (_, environment) = try Self.stateFolder()
        for (index, extra) in [["--title", "Build"], ["--tag", "volume", "--progress", "40"], ["--no-history"], ["--button", "OK"]]
            .enumerated()
        {
            let text = extra == ["--no-history"] ? "Secret" : "Toast \(index)"
            let result = try XToastProcess.run(Self.quick + extra + [text], display: server.name, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let listed = try XToastProcess.run(["--history"], display: nil, environment: environment)
        #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(listed.stdout)")
        #expect(
            lines.map { $0.hasSuffix("Toast 3") || $0.hasSuffix("[volume] Toast 1") || $0.hasSuffix("Build: Toast 0") } == [
                true, true, true,
            ])
        #expect(lines.first?.hasSuffix("Toast 3") == true && lines.last?.hasSuffix("Build: Toast 0") == true)
        #expect(!listed.stdout.contains("Secret"))

        let json = try XToastProcess.run(["--history", "--json"], display: nil, environment: environment)
        let objects = try json.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["text"] as? String } == ["Toast 3", "Toast 1", "Toast 0"])
        #expect(objects[0]["buttons"] as? [String] == ["OK"] && objects[1]["tag"] as? String == "volume")
        #expect(objects.allSatisfy { $0["ending"] as? String == "expired" && $0["shown"] as? Bool == true })

        // Shown again as it was, with its button; this call's options win over the entry's.
        let again = try XToastProcess(
            ["--reshow", "--duration", "sticky", "--print-outcome"], display: server.name, environment: environment)
        let window = try #require(try watcher.waitForToasts().first)
        #expect(watcher.pid(window) == again.child.pid)
        #expect(try XToastProcess.run(["--press", "OK"], display: server.name).status == 0)
        let answer = try again.wait()
        #expect(answer.status == 0 && answer.stdout == "button\nOK\n", "\(answer.stderr)")
        let after = try XToastProcess.run(["--history", "--json"], display: nil, environment: environment)
        #expect(after.stdout.split(separator: "\n").first?.contains(#""choice":"OK""#) == true, "\(after.stdout)")

        let beyond = try XToastProcess.run(["--reshow", "9"], display: server.name, environment: environment)
        #expect(beyond.status == 1 && beyond.stderr == "xtoast: the history has 4 toasts, not 9\n", "\(beyond.stderr)")
        #expect(try XToastProcess.run(["--reshow", "x"], display: nil, environment: environment).status == 64)
    }

    /// A notification's `image-data` picture is a PNG of the service's, deleted with its toast;
    /// any picture may be gone since. The history's icon is not this call's: the toast shows.
    @Test func aToastWhosePictureIsGoneShowsAgainWithoutItAndOneWarning() throws {
        let server = try PrivateXServer()
        let (_, environment) = try Self.stateFolder()
        let picture = temporaryPath(".png")
        #expect(try XToastProcess.run(["--render-png", picture, "A picture"], display: nil).status == 0)
        #expect(
            try XToastProcess.run(Self.quick + ["--icon", picture, "Pictured"], display: server.name, environment: environment).status == 0)
        try FileManager.default.removeItem(atPath: picture)

        let again = try XToastProcess.run(["--reshow"] + Self.quick, display: server.name, environment: environment)
        #expect(again.status == 0)
        #expect(
            again.stderr
                == "xtoast: warning: history: icon: cannot read icon \"\(picture)\": no such file or directory; showing the toast without it\n"
        )
        let json = try XToastProcess.run(["--history", "--json"], display: nil, environment: environment)
        let newest = try #require(json.stdout.split(separator: "\n").first)
        #expect(
            newest.contains(#""shown":true"#) && newest.contains(#""text":"Pictured""#) && newest.contains(#""icon":null"#), "\(newest)")

        // An icon given with --reshow is this call's: a missing one is an error, as anywhere.
        let given = try XToastProcess.run(["--reshow", "--icon", picture] + Self.quick, display: server.name, environment: environment)
        #expect(
            given.status == 1 && given.stderr == "xtoast: cannot read icon \"\(picture)\": no such file or directory\n", "\(given.stderr)")
    }

    @Test func aToastDismissedWhileItWaitedIsNotLost() throws {
        let server = try PrivateXServer()
        let watcher = try XWatcher(display: server.name)
        let (_, environment) = try Self.stateFolder()
        let sticky = ["--duration", "sticky", "--fade-in", "0", "--fade-out", "0", "--idle", "0"]
        let shown = try XToastProcess(sticky + ["On screen"], display: server.name, environment: environment)
        try watcher.waitForShown(pid: shown.child.pid)
        let waiting = try XToastProcess(sticky + ["Never shown"], display: server.name, environment: environment)
        try waitUntil("the second toast queued") { watcher.ticket(of: waiting.child.pid) != nil }
        #expect(try XToastProcess.run(["--dismiss-all"], display: server.name).status == 0)
        #expect(try shown.wait().status == 0 && waiting.wait().status == 0)
        let listed = try XToastProcess.run(["--history"], display: nil, environment: environment)
        let lines = listed.stdout.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 3).dropFirst(2).joined(separator: " ") }
        #expect(Set(lines) == ["dismissed   On screen", "dismissed (not shown)  Never shown"], "\(listed.stdout)")
    }

    @Test func threeHundredToastsLeaveABoundedHistory() throws {
        let server = try PrivateXServer()
        let (folder, environment) = try Self.stateFolder()
        for index in 0..<300 {
            let result = try XToastProcess.run(Self.quick + ["Toast \(index)"], display: server.name, environment: environment)
            #expect(result.status == 0)
        }
        let file = folder + "/xtoast/history"
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.size] as? Int ?? .max) < 64 * 1024)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "only the user reads it")
        let listed = try XToastProcess.run(["--history"], display: nil, environment: environment)
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.count == 50)
        #expect(lines.first?.hasSuffix("Toast 299") == true && lines.last?.hasSuffix("Toast 250") == true)
    }

    @Test func garbageInTheHistoryIsSurvivedWithOneWarning() throws {
        let server = try PrivateXServer()
        let (folder, environment) = try Self.stateFolder()
        try FileManager.default.createDirectory(atPath: folder + "/xtoast", withIntermediateDirectories: true)
        let file = folder + "/xtoast/history"
        // A file far past its bound, its end: a line that does not read, a forged entry with an
        // escape sequence in it, bytes that are not UTF-8.
        var garbage = Data(repeating: UInt8(ascii: "x"), count: 3 << 20)
        garbage.append(Data("\n\u{1B}]0;owned\u{7}\nt=1\tend=expired\tshown=1\ttext=forged \u{1B}[2J\n".utf8))
        garbage.append(Data([0xFF, 0x00, 0x0A]))
        try garbage.write(to: URL(fileURLWithPath: file))

        let listed = try XToastProcess.run(["--history"], display: nil, environment: environment)
        #expect(listed.status == 0)
        #expect(listed.stderr.split(separator: "\n").count == 1 && listed.stderr.hasPrefix("xtoast: warning: history"), "\(listed.stderr)")
        #expect(listed.stdout.hasSuffix("forged \\x1B[2J\n"), "what came from the file is inert on a terminal: \(listed.stdout)")

        // A toast still shows and is recorded; the file is written anew, bounded and clean.
        let toast = try XToastProcess.run(Self.quick + ["After the garbage"], display: server.name, environment: environment)
        #expect(toast.status == 0 && toast.stderr.isEmpty, "\(toast.stderr)")
        let again = try XToastProcess.run(["--history"], display: nil, environment: environment)
        #expect(
            again.stderr.isEmpty && again.stdout.split(separator: "\n").first?.hasSuffix("After the garbage") == true, "\(again.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? .max
        #expect(size < 64 * 1024)
    }
}
