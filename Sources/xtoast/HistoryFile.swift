import Glibc
import XToastCore
import XToastRender
import XToastSystem

/// Where the history lives, and its reads and writes (what to write is `HistoryStore`'s).
///
/// A file of the user's, `$XDG_STATE_HOME/xtoast/history` (mode 0600, in a 0700 folder), not a
/// property of the X server: the server's properties are for every client of the display
/// (another user's `ssh -X` session, any program the display admits) to read, and a history is
/// a record of what the user was told, private as their mail is. A file also survives the X
/// session, as a history should; the queue, which must end with the session, stays on the
/// server. It is written when the toast ends (how it ended is part of the entry), so the first
/// paint never waits for it; it is read only by `--history` and `--reshow`.
enum HistoryFile {
    /// `$XDG_STATE_HOME/xtoast/history`, else `~/.local/state/xtoast/history`; nil without either.
    static var path: String? { folder.map { $0 + "/history" } }

    private static var folder: String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/xtoast" }
        return environment("HOME").map { $0 + "/.local/state/xtoast" }
    }

    /// Adds `entry`; a failure is one warning, never the toast's status.
    static func record(_ entry: HistoryEntry) {
        guard let folder, let path else { return }
        do throws(Errno) {
            try makeFolders(folder)
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
            guard fd >= 0 else { throw Errno.current }
            defer { close(fd) }
            try checkRegular(fd)
            try lock(fd, exclusive: true)
            let (bytes, cut) = try readEnd(fd)
            switch HistoryStore.recording(entry, in: bytes, cut: cut) {
            case .append(let line): try write(fd, line, at: nil)
            case .replace(let all):
                guard ftruncate(fd, 0) == 0 else { throw Errno.current }
                try write(fd, all, at: 0)
            }
        } catch {
            warn("cannot record the toast in the history \"\(TerminalText.line(path))\": \(error.description)")
        }
    }

    /// What the file holds; an absent file is an empty history, a damaged one one warning.
    static func read() throws(CommandError) -> HistoryStore.Contents {
        guard let path else { return HistoryStore.Contents() }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        if fd < 0 && errno == ENOENT { return HistoryStore.Contents() }
        do throws(Errno) {
            guard fd >= 0 else { throw Errno.current }
            defer { close(fd) }
            try checkRegular(fd)
            // A writer holds it for a moment; if it does not let go, read what is there.
            try? lock(fd, exclusive: false)
            let (bytes, cut) = try readEnd(fd)
            let contents = HistoryStore.read(bytes, cut: cut)
            if contents.garbage > 0 || cut {
                var problems: [String] = []
                if cut { problems.append("larger than \(HistoryStore.byteLimit / 1024) KiB, only its end was read") }
                if contents.garbage > 0 { problems.append("\(contents.garbage) unreadable lines skipped") }
                warn("history \"\(TerminalText.line(path))\": \(problems.joined(separator: "; "))")
            }
            return contents
        } catch {
            throw .failure("cannot read the history \"\(TerminalText.line(path))\": \(error.description)")
        }
    }

    // MARK: The calls

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Creates `folder` and the folders above it that are missing, private (0700).
    private static func makeFolders(_ folder: String) throws(Errno) {
        var path = ""
        for component in folder.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw Errno.current }
        }
    }

    private static func checkRegular(_ fd: Int32) throws(Errno) {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Errno.current }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Errno(EINVAL) }
    }

    /// Takes the file's lock, waiting at most about a quarter of a second: a writer holds it
    /// for one read and one write, and a stuck one must not hang a toast.
    private static func lock(_ fd: Int32, exclusive: Bool) throws(Errno) {
        for _ in 0..<125 {
            if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return }
            guard errno == EWOULDBLOCK || errno == EINTR else { throw Errno.current }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
        throw Errno(EWOULDBLOCK)
    }

    /// The file's last `HistoryStore.byteLimit` bytes, and whether there was more before them.
    private static func readEnd(_ fd: Int32) throws(Errno) -> ([UInt8], cut: Bool) {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Errno.current }
        let size = Int(status.st_size)
        let start = max(0, size - HistoryStore.byteLimit)
        var bytes = [UInt8](repeating: 0, count: size - start)
        var done = 0
        while done < bytes.count {
            let count = try retryingOnInterrupt {
                bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(start + done)) }
            }.get()
            if count == 0 { break }
            done += count
        }
        return (Array(bytes[..<done]), start > 0)
    }

    /// Writes all of `bytes` at `offset`, or at the end when nil (the lock keeps other writers out).
    private static func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int?) throws(Errno) {
        if offset == nil { guard lseek(fd, 0, SEEK_END) >= 0 else { throw Errno.current } }
        var done = 0
        while done < bytes.count {
            let count = try retryingOnInterrupt {
                bytes.withUnsafeBytes { buffer in
                    offset.map { pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t($0 + done)) }
                        ?? Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                }
            }.get()
            done += count
        }
    }
}
