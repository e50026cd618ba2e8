import Glibc

/// A system call's error number: the one place where xtoast reads `errno`, retries a call a
/// signal interrupted, and puts an error number into words (as swift-system's `Errno`). It
/// lives in the platform module, under everything that talks to the C library.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C value (`ENOENT`…).
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The error of the last failed call on this thread.
    public static var current: Errno { Errno(errno) }

    /// The system's words for it, starting lowercase to sit inside one of our lines:
    /// `cannot read "/x": no such file or directory`.
    public var description: String {
        let words = String(cString: strerror(code))
        // The C library's messages start with a capital; acronyms ("RPC struct is bad") keep theirs.
        guard let first = words.first, first.isUppercase, !(words.dropFirst().first?.isUppercase ?? false) else { return words }
        return first.lowercased() + words.dropFirst()
    }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let inProgress = Errno(EINPROGRESS)
    public static let badDescriptor = Errno(EBADF)
    public static let noSuchFile = Errno(ENOENT)
    public static let ioError = Errno(EIO)
    public static let exists = Errno(EEXIST)
    public static let fileTooLarge = Errno(EFBIG)

    /// Calls `body` with `errno` cleared first: for a library call that sets it on some failures
    /// only and says nothing of it (`XOpenDisplay`). Its answer, and the error it left, if any.
    public static func leftBy<T>(_ body: () -> T) -> (T, Errno?) {
        errno = 0
        let value = body()
        let left = errno
        return (value, left == 0 ? nil : Errno(left))
    }
}

/// Calls `body`, a system call that answers -1 and sets `errno` when it fails, again for as long
/// as a signal interrupts it (EINTR): its answer, or the error that was not an interruption.
/// A call with a timeout computes it in `body`, so that a retry waits only for what is left.
public func retryingOnInterrupt<T: SignedInteger>(_ body: () -> T) -> Result<T, Errno> {
    while true {
        let value = body()
        guard value == -1 else { return .success(value) }
        let failure = Errno.current
        guard failure == .interrupted else { return .failure(failure) }
    }
}

/// Calls `body`, a call that answers -1 and sets `errno` when it fails, once: its answer, or the
/// error (for calls that are never interrupted, or whose interruption is an answer).
public func valueOrErrno<T: SignedInteger>(_ body: () -> T) -> Result<T, Errno> {
    let value = body()
    return value == -1 ? .failure(Errno.current) : .success(value)
}

/// A call of the platform that failed, in words for the user: what was tried and why it failed
/// (`cannot create a timer: too many open files`).
public struct SystemFailure: Error, Equatable, CustomStringConvertible {
    public var attempt: String
    public var cause: Errno

    public init(_ attempt: String, _ cause: Errno = .current) {
        (self.attempt, self.cause) = (attempt, cause)
    }

    public var description: String { "\(attempt): \(cause)" }
}
