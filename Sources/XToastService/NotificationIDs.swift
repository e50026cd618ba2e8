import Glibc
import XToastCore
import XToastSystem

/// The ids the notification service gives (issues #28): a counter in a file of the user's own,
/// `$XDG_RUNTIME_DIR/xtoast/notification-ids`, so that a service started again never hands out
/// an id an application still holds, and two services (one leaving, one starting) never hand
/// out the same. A file, not the X server: a `Notify` never waits for the display (another
/// client's grab stalls it for as long as it likes), and the folder lives as long as the
/// user's session. Each id is taken under the file's lock: a read and a write, microseconds.
final class NotificationIDs {
    private let descriptor: Int32
    /// The next id as last read: an id below it was given (`isIssued`).
    private var next: UInt32 = 1

    /// Opens (or makes) the counter; nil, with why, when there is no folder of the user's own
    /// for it.
    init(folder: String) throws(SystemFailure) {
        if mkdir(folder, 0o700) != 0 && Errno.current != .exists { throw SystemFailure("cannot make \(folder)") }
        let fd = open("\(folder)/notification-ids", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemFailure("cannot open \(folder)/notification-ids") }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_uid == getuid(), status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw SystemFailure("\(folder)/notification-ids is not the user's own file", Errno(EPERM))
        }
        descriptor = fd
        _ = withLock { read() }
    }

    deinit { close(descriptor) }

    /// The folder for the service's files: `$XDG_RUNTIME_DIR/xtoast`, or one of the user's own
    /// in the temporary folder.
    static var folder: String {
        if let runtime = Environment.value("XDG_RUNTIME_DIR") { return "\(runtime)/xtoast" }
        return "\(Environment.value("TMPDIR") ?? "/tmp")/xtoast-\(getuid())"
    }

    /// A new id (above 0; past the top of 32 bits the count starts again at 1).
    func take() -> UInt32 {
        withLock {
            let id = read()
            write(id == UInt32.max ? 1 : id + 1)
            return id
        }
    }

    /// Whether `id` was ever given (an application may replace it); a `replaces_id` never given
    /// gets a new id instead, so that two applications never share one.
    func isIssued(_ id: UInt32) -> Bool {
        _ = withLock { read() }
        return id >= 1 && id < next
    }

    private func withLock<T>(_ body: () -> T) -> T {
        _ = retryingOnInterrupt { flock(descriptor, LOCK_EX) }
        defer { flock(descriptor, LOCK_UN) }
        return body()
    }

    /// The stored next id (1 when the file is empty or holds garbage).
    private func read() -> UInt32 {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        let value = UInt32(text.prefix { $0.isNumber }) ?? 1
        next = max(value, 1)
        return next
    }

    private func write(_ value: UInt32) {
        let text = Array("\(value)\n".utf8)
        if pwrite(descriptor, text, text.count, 0) == text.count { _ = ftruncate(descriptor, off_t(text.count)) }
        next = value
    }
}
