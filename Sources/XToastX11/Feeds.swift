import Glibc
import XToastCore
import XToastRender
import XToastSystem

/// Lines from standard input (`--stdin`), read without blocking as they come.
final class LineReader {
    let descriptor: Int32
    private var pending: [UInt8] = []
    private let savedFlags: Int32
    private(set) var ended = false

    /// Bytes read per wake-up: a flood of input cannot keep the loop from drawing.
    static let chunk = 65536

    init(descriptor: Int32) {
        self.descriptor = descriptor
        savedFlags = fcntl(descriptor, F_GETFL)
        if savedFlags >= 0 { _ = fcntl(descriptor, F_SETFL, savedFlags | O_NONBLOCK) }
    }

    /// The file description may be shared (a terminal, a pipe): give it back as it was.
    deinit { if savedFlags >= 0 { _ = fcntl(descriptor, F_SETFL, savedFlags) } }

    /// The complete lines that one read brings; sets `ended` at end of file or on an error.
    func readLines() -> [String] {
        var buffer = [UInt8](repeating: 0, count: LineReader.chunk)
        switch retryingOnInterrupt({ read(descriptor, &buffer, buffer.count) }) {
        case .success(let count) where count > 0: pending += buffer[0..<count]
        case .failure(.wouldBlock): break
        case .success, .failure: ended = true
        }
        var lines: [String] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: 10) {
            lines.append(MessageText.decode(pending[start..<newline]).text)
            start = newline + 1
        }
        pending.removeFirst(start)
        // A line longer than anything a toast shows is cut rather than kept growing.
        if pending.count > LineReader.chunk { pending.removeFirst(pending.count - LineReader.chunk) }
        if ended && !pending.isEmpty {
            lines.append(MessageText.decode(pending).text)
            pending.removeAll()
        }
        return lines
    }
}

/// A command run with `--run`: its process, and how it ended.
public struct RunningCommand: Sendable {
    public let pid: pid_t
    /// The command line, for the toast.
    public let commandLine: String
    /// How long it may run before a toast appears at all.
    public let grace: Double
    /// How long the result stays.
    public let resultHold: Double

    public init(pid: pid_t, commandLine: String, grace: Double, resultHold: Double) {
        self.pid = pid
        self.commandLine = commandLine
        self.grace = grace
        self.resultHold = resultHold
    }

    /// The exit status if it has ended (128+N when killed by signal N); reaps it.
    func reap() -> Int32? { ChildProcess.reap(pid)?.shellStatus }
}
