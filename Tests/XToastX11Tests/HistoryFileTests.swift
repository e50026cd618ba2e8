import Foundation
import Testing

/// The history's file itself: only a file of the user's alone is written or read, a file that
/// is no file is named for what it is, and a write cut short (`ulimit -f`) costs the toast
/// nothing and leaves the file whole.
@Suite("History file")
struct HistoryFileTests {
    static let quick = HistoryTests.quick

    /// Entries as the history holds them, oldest first, about 100 bytes each.
    static func lines(_ count: Int) -> String {
        (0..<count).map { "t=\(1_795_600_000 + $0)\tend=expired\tshown=1\ttext=An older toast, number \($0), long enough to count\n" }
            .joined()
    }

    static func write(_ text: String, to path: String, mode: Int = 0o600) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, mode_t(mode)) == 0)
    }

    /// What another user (or a program of the user's that went wrong) can have left where the
    /// history goes, and the words that name it.
    enum Planted: CaseIterable {
        /// The issue's case: a 0666 file in a 0777 folder, both another user's.
        case folderOfAnotherUser
        case fileOfAnotherUser
        case fileWritableByOthers
        case folderWritableByOthers
        case symbolicLink
        case symbolicLinkedFolder

        /// Only root can give a file to another user.
        var needsRoot: Bool { self == .folderOfAnotherUser || self == .fileOfAnotherUser }

        /// Plants it under `state`; the file whose bytes must not change, and the words.
        func plant(in state: String) throws -> (target: String, words: String) {
            let folder = state + "/xtoast"
            let file = folder + "/history"
            let elsewhere = temporaryPath("-elsewhere")
            switch self {
            case .folderOfAnotherUser, .fileOfAnotherUser:
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try HistoryFileTests.write(HistoryFileTests.lines(1), to: file, mode: 0o666)
                #expect(chown(file, 65534, 65534) == 0)
                if self == .fileOfAnotherUser {
                    #expect(chmod(folder, 0o700) == 0)
                    return (file, "the history \"\(file)\" belongs to another user (uid 65534)")
                }
                #expect(chmod(folder, 0o777) == 0 && chown(folder, 65534, 65534) == 0)
                return (file, "the history's folder \"\(folder)\" belongs to another user (uid 65534)")
            case .fileWritableByOthers:
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try HistoryFileTests.write(HistoryFileTests.lines(1), to: file, mode: 0o666)
                return (file, "the history \"\(file)\" can be written by other users (mode 666)")
            case .folderWritableByOthers:
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                #expect(chmod(folder, 0o777) == 0)
                try HistoryFileTests.write(HistoryFileTests.lines(1), to: file)
                return (file, "the history's folder \"\(folder)\" can be written by other users (mode 777)")
            case .symbolicLink:
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try HistoryFileTests.write(HistoryFileTests.lines(1), to: elsewhere)
                #expect(symlink(elsewhere, file) == 0)
                return (elsewhere, "the history \"\(file)\" is a symbolic link, not a file")
            case .symbolicLinkedFolder:
                try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
                try HistoryFileTests.write(HistoryFileTests.lines(1), to: elsewhere + "/history")
                #expect(symlink(elsewhere, folder) == 0)
                return (elsewhere + "/history", "the history's folder \"\(folder)\" is a symbolic link, not a folder")
            }
        }
    }

    @Test(arguments: Planted.allCases.filter { getuid() == 0 || !$0.needsRoot })
    func aHistoryThatIsNotTheUsersAloneIsNeitherWrittenNorRead(planted: Planted) throws {
        let server = try PrivateXServer()
        let (state, environment) = try HistoryTests.stateFolder()
        let (target, words) = try planted.plant(in: state)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))

        let toast = try XToastProcess.run(Self.quick + ["Private"], display: server.name, environment: environment)
        #expect(toast.status == 0)
        #expect(toast.stderr == "xtoast: warning: the toast is not recorded: \(words)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before, "nothing written")

        let listed = try XToastProcess.run(["--history"], display: nil, environment: environment)
        #expect(listed.status == 1 && listed.stdout.isEmpty)
        #expect(listed.stderr == "xtoast: \(words)\n")
    }

    enum Kind: String, CaseIterable, CustomStringConvertible {
        case fifo = "a FIFO"
        case directory = "a directory"
        case device = "a character device"

        var description: String { rawValue }

        func make(at path: String) throws {
            switch self {
            case .fifo: #expect(mkfifo(path, 0o600) == 0)
            case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            // /dev/null's numbers (major 1, minor 3): a device that opening would not harm.
            case .device: #expect(mknod(path, S_IFCHR | 0o600, dev_t(1 << 8 | 3)) == 0)
            }
        }
    }

    @Test(arguments: Kind.allCases.filter { getuid() == 0 || $0 != .device })
    func aHistoryThatIsNoFileIsNamedForWhatItIsAndNeverWaitedOn(kind: Kind) throws {
        let server = try PrivateXServer()
        let (state, environment) = try HistoryTests.stateFolder()
        try FileManager.default.createDirectory(atPath: state + "/xtoast", withIntermediateDirectories: false)
        let file = state + "/xtoast/history"
        try kind.make(at: file)
        let words = "the history \"\(file)\" is \(kind), not a file"

        let listed = try XToastProcess.run(["--history"], display: nil, environment: environment, timeout: 5)
        #expect(listed.status == 1 && listed.stdout.isEmpty)
        #expect(listed.stderr == "xtoast: \(words)\n")
        let again = try XToastProcess.run(["--reshow"], display: server.name, environment: environment, timeout: 5)
        #expect(again.status == 1 && again.stderr == "xtoast: \(words)\n")

        let toast = try XToastProcess.run(Self.quick + ["Shown all the same"], display: server.name, environment: environment, timeout: 5)
        #expect(toast.status == 0)
        #expect(toast.stderr == "xtoast: warning: the toast is not recorded: \(words)\n")
    }

    /// `ulimit -f 2`: 1 KiB for dash (512-byte blocks), 2 KiB for bash; the history holds 3 KB.
    static let fileSizeLimit = #"ulimit -f 2; exec "$0" "$@""#

    @Test(arguments: [false, true])
    func pastTheFileSizeLimitTheToastEndsAsUsualAndTheHistoryStaysWhole(rewritten: Bool) throws {
        let server = try PrivateXServer()
        let (state, environment) = try HistoryTests.stateFolder()
        try FileManager.default.createDirectory(atPath: state + "/xtoast", withIntermediateDirectories: false)
        let file = state + "/xtoast/history"
        // A line that does not read makes the next toast write the file anew; else it appends.
        try Self.write((rewritten ? "not an entry\n" : "") + Self.lines(30), to: file)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))

        let toast = try XToastProcess(
            Self.quick + ["Past the limit"], display: server.name, environment: environment, viaShell: Self.fileSizeLimit
        ).wait()
        #expect(toast.status == 0, "not killed by SIGXFSZ: \(toast.stderr)")
        #expect(toast.stderr == "xtoast: warning: cannot record the toast in the history \"\(file)\": file too large\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "the file as it was, not torn")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/xtoast") == ["history"], "nothing left beside it")
    }

    @Test func aRunCommandPastTheFileSizeLimitStillEndsBySIGXFSZ() throws {
        let server = try PrivateXServer()
        let (_, environment) = try HistoryTests.stateFolder()
        let output = temporaryPath(".big")
        let run = try XToastProcess(
            Self.quick + ["--run", "--", "sh", "-c", "head -c 100000 /dev/zero > \(output)"], display: server.name,
            environment: environment, viaShell: Self.fileSizeLimit
        ).wait()
        #expect(run.status == 128 + SIGXFSZ, "the command's own end: \(run.stderr)")
        try? FileManager.default.removeItem(atPath: output)
    }
}
