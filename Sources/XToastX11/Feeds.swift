import Glibc
import XToastCore

/// Lines from standard input (`--stdin`), read without blocking as they come.
final class LineReader {
    let descriptor: Int32
    private var pending: [UInt8] = []
    private(set) var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// The complete lines available now; sets `ended` at end of file.
    func readLines() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                pending += buffer[0..<count]
                // A line longer than anything a toast shows is cut rather than kept growing.
                if pending.count > 1 << 16 && !pending.contains(10) { pending.removeFirst(pending.count - (1 << 16)) }
                continue
            }
            if count == 0 { ended = true }
            break
        }
        var lines: [String] = []
        while let newline = pending.firstIndex(of: 10) {
            lines.append(MessageText.decode(pending[..<newline]).text)
            pending.removeFirst(newline + 1)
        }
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
    func reap() -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
