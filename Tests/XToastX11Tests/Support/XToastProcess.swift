import Foundation

/// The xtoast binary under test: $XTOAST_BIN, or the one built beside this test bundle.
func xtoastBinary() throws -> String {
    if let path = ProcessInfo.processInfo.environment["XTOAST_BIN"] { return path }
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
        let path = candidate.appendingPathComponent("xtoast").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw TestFailure("xtoast is not built (looked beside \(CommandLine.arguments[0])); set XTOAST_BIN")
}

/// One running xtoast, its output captured in files (a pipe nobody reads could block it).
final class XToastProcess {
    let child: Child
    private let stdoutPath = temporaryPath(".out")
    private let stderrPath = temporaryPath(".err")
    private let stdinPath: String?

    /// Starts xtoast with `arguments`; `display` nil removes DISPLAY from the environment.
    /// `viaShell` runs it through a `/bin/sh -c` script that gets the binary as `$0` and the
    /// arguments as `$@` (for limits, traps and bytes a Swift string cannot hold).
    /// `stdoutDescriptor` is a descriptor of ours to give it as standard output (a pipe);
    /// `stdout` is then empty. `executable` runs another program (a link to xtoast, or the
    /// program xtoast stands in for) the same way.
    init(
        _ arguments: [String], display: String?, stdin: Data? = nil, environment: [String: String?] = [:],
        viaShell script: String? = nil, stdoutDescriptor: Int32? = nil, executable: String? = nil
    ) throws {
        if let stdin {
            let path = temporaryPath(".in")
            guard FileManager.default.createFile(atPath: path, contents: stdin) else {
                throw TestFailure("cannot write the standard input file \(path)")
            }
            stdinPath = path
        } else {
            stdinPath = nil
        }
        let shell = script.map { ["/bin/sh", "-c", $0] } ?? []
        child = try Child(
            shell + [try executable ?? xtoastBinary()] + arguments,
            environment: environment.merging(["DISPLAY": display, "XTOAST_BIN": nil]) { $1 },
            stdin: stdinPath, stdout: stdoutPath, stderr: stderrPath, stdoutDescriptor: stdoutDescriptor)
    }

    deinit {
        for path in [stdoutPath, stderrPath, stdinPath].compactMap({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Waits for the exit; throws (and kills it) if it takes longer than `timeout`: xtoast must never hang.
    func wait(timeout: Double = 20) throws -> Result {
        guard let status = child.wait(timeout: timeout) else {
            child.stop(with: SIGKILL)
            throw TestFailure("xtoast \(child.command.dropFirst()) did not exit within \(timeout) s")
        }
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return Result(status: status, stdout: read(stdoutPath), stderr: read(stderrPath))
    }

    func signal(_ number: Int32) { child.signal(number) }

    /// Runs xtoast to its end.
    static func run(
        _ arguments: [String], display: String?, stdin: Data? = nil, environment: [String: String?] = [:], executable: String? = nil,
        timeout: Double = 20
    ) throws -> Result {
        try XToastProcess(arguments, display: display, stdin: stdin, environment: environment, executable: executable).wait(
            timeout: timeout)
    }
}
