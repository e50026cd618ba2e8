import CSystem
import Glibc

/// A pipe's two ends, close-on-exec: no program started later inherits them (`spawn`'s
/// `dup2` gives a child the one it should have).
public struct Pipe {
    public let read: Int32
    public let write: Int32

    public init() throws(Errno) {
        var ends: [Int32] = [-1, -1]
        guard xtoast_pipe(&ends) == 0 else { throw Errno.current }
        (read, write) = (ends[0], ends[1])
    }

    public func close() {
        Glibc.close(read)
        Glibc.close(write)
    }
}

/// Calls on one file descriptor.
public enum Descriptor {
    /// Makes reads and writes on `descriptor` answer at once (EAGAIN) instead of waiting.
    public static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Asks for a pipe buffer of `bytes` (Linux); false where it cannot be had.
    @discardableResult
    public static func setPipeBuffer(_ descriptor: Int32, bytes: Int) -> Bool {
        xtoast_set_pipe_size(descriptor, Int32(bytes)) >= 0
    }

    /// Waits until `descriptor` can be read (or has hung up), at most until `deadline` on the
    /// monotonic clock (nil: no limit; a deadline past: only looks). Whether it can.
    public static func waitReadable(_ descriptor: Int32, until deadline: Double?) -> Bool {
        while true {
            let left = deadline.map { $0 - Clock.monotonic() }
            if let left, left < 0 { return poll(descriptor, milliseconds: 0) }
            let milliseconds = left.map { Int32(min($0 * 1000, 60_000).rounded(.up)) } ?? -1
            if poll(descriptor, milliseconds: milliseconds) { return true }
        }
    }

    private static func poll(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard case .success(let ready) = valueOrErrno({ Glibc.poll(&entry, 1, milliseconds) }) else { return false }
        return ready > 0
    }

    /// Waits without a time limit until one of `descriptors` has one of its `events`, or an
    /// error or a hang-up (which `poll` reports whatever was asked: events 0 asks for those
    /// alone, as for a reader of our output going away). What each has, in the same order.
    public static func waitForAny(_ descriptors: [(descriptor: Int32, events: Int16)]) throws(Errno) -> [Int16] {
        var entries = descriptors.map { pollfd(fd: $0.descriptor, events: $0.events, revents: 0) }
        if case .failure(let failure) = retryingOnInterrupt({ Glibc.poll(&entries, nfds_t(entries.count), -1) }) { throw failure }
        return entries.map(\.revents)
    }

    /// Writes all of `bytes` to a blocking descriptor (a file), going on after a short write or
    /// an interruption; whether it all went.
    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let result = retryingOnInterrupt {
                bytes[done...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
            guard case .success(let count) = result, count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Reads what is there now from a descriptor, at most `limit` bytes; nil at its end (or on
    /// an error other than "nothing now").
    public static func readAvailable(_ descriptor: Int32, limit: Int = 4096) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max(limit, 1))
        switch retryingOnInterrupt({ Glibc.read(descriptor, &buffer, buffer.count) }) {
        case .success(let count) where count > 0: return Array(buffer[0..<count])
        case .success: return nil
        case .failure(let error): return error == .wouldBlock ? [] : nil
        }
    }
}

/// The process's memory.
public enum Memory {
    /// Gives the heap's free pages back to the system: after a flood, what was freed is not
    /// kept by malloc for the rest of a long-lived process.
    public static func giveBack() { _ = xtoast_give_back_memory() }
}
