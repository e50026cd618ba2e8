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
///
/// Only a folder and a file of the user's alone are used, for writing and reading alike: not
/// symbolic links, owned by the user, writable by nobody else. Anything else may be another
/// user's, planted to receive what the user is told or to tell them something; it is named in
/// one line and left alone. Each is checked on its open descriptor, which is what is used: a
/// check of the path before opening could be of another file by then.
enum HistoryFile {
    /// `$XDG_STATE_HOME/xtoast/history`, else `~/.local/state/xtoast/history`; nil without either.
    static var path: String? { folder.map { $0 + "/" + name } }

    private static var folder: String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/xtoast" }
        return environment("HOME").map { $0 + "/.local/state/xtoast" }
    }

    private static let name = "history"
    /// A rewrite, until it takes the history's place.
    private static let newName = "history.new"

    /// Why the history was not used.
    enum Problem: Error {
        /// Not a folder or file of the user's alone: what it is instead, in words.
        case refused(String)
        case failed(Errno)
    }

    /// Adds `entry`; a failure is one warning, never the toast's status.
    static func record(_ entry: HistoryEntry) { record([entry]) }

    /// Adds `entries`, oldest first, with one read and one write (the notification service
    /// records a burst's at once); a failure is one warning.
    static func record(_ entries: [HistoryEntry]) {
        guard !entries.isEmpty, let folder, let path else { return }
        do throws(Problem) {
            try makeFolders(folder)
            guard let directory = try openFolder(folder) else { throw .failed(.noSuchFile) }
            defer { close(directory) }
            let fd = try openCurrentFile(in: directory, path: path)
            defer { close(fd) }
            var (bytes, cut, size) = try readEnd(fd)
            var appended: [UInt8] = []
            var replaced = false
            for (index, entry) in entries.enumerated() {
                switch HistoryStore.recording(entry, in: bytes, cut: cut) {
                case .append(let line):
                    // The file grown by the line is what the next entry is decided on, or what is
                    // written anew; a toast's one entry needs no such copy (twice the file's size).
                    if replaced || index < entries.count - 1 { bytes += line }
                    appended += line
                case .replace(let all):
                    (bytes, cut, replaced, appended) = (all, false, true, [])
                }
            }
            if replaced { try replace(with: bytes, in: directory) } else { try append(appended, to: fd, at: size) }
        } catch {
            switch error {
            case .refused(let words): warn("the toast is not recorded: \(words)")
            case .failed(let failure):
                warn("cannot record the toast in the history \"\(TerminalText.line(path))\": \(failure.description)")
            }
        }
    }

    /// What the file holds; an absent file is an empty history, a damaged one one warning.
    static func read() throws(CommandError) -> HistoryStore.Contents {
        guard let folder, let path else { return HistoryStore.Contents() }
        do throws(Problem) {
            guard let directory = try openFolder(folder) else { return HistoryStore.Contents() }
            defer { close(directory) }
            guard let fd = try openFile(in: directory, path: path, creating: false) else { return HistoryStore.Contents() }
            defer { close(fd) }
            // A writer holds it for a moment; if it does not let go, read what is there.
            var wait = lockWait
            try? lock(fd, exclusive: false, wait: &wait)
            let (bytes, cut, _) = try readEnd(fd)
            let contents = HistoryStore.read(bytes, cut: cut)
            if contents.garbage > 0 || cut {
                var problems: [String] = []
                if cut { problems.append("larger than \(HistoryStore.byteLimit / 1024) KiB, only its end was read") }
                if contents.garbage > 0 { problems.append("\(contents.garbage) unreadable lines skipped") }
                warn("history \"\(TerminalText.line(path))\": \(problems.joined(separator: "; "))")
            }
            return contents
        } catch {
            switch error {
            case .refused(let words): throw .failure(words)
            case .failed(let failure): throw .failure("cannot read the history \"\(TerminalText.line(path))\": \(failure.description)")
            }
        }
    }

    // MARK: Whose they are

    /// The history's folder, open, when it is the user's alone; nil when it does not exist.
    private static func openFolder(_ folder: String) throws(Problem) -> Int32? {
        let what = "the history's folder \"\(TerminalText.line(folder))\""
        // Looked at first only to name what is there; what counts is the descriptor's.
        var status = stat()
        guard lstat(folder, &status) == 0 else {
            let failure = Errno.current
            if failure == .noSuchFile { return nil }
            throw .failed(failure)
        }
        if status.st_mode & S_IFMT != S_IFDIR { throw .refused("\(what) is \(RegularFile.kind(status.st_mode) ?? "a file"), not a folder") }
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let failure = Errno.current
            // A link or a file put in its place since it was looked at.
            if failure == Errno(ELOOP) || failure == Errno(ENOTDIR) { throw .refused("\(what) changed while it was opened") }
            throw .failed(failure)
        }
        do throws(Problem) {
            guard fstat(fd, &status) == 0 else { throw .failed(.current) }
            try checkOurs(status, what)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The history in `directory`, open (for writing too, and created, when `creating`), when it
    /// is a regular file of the user's alone; nil when there is none and none is created.
    /// Looked at before opening, so that opening has no effect on a device or a FIFO; checked
    /// again on the descriptor.
    private static func openFile(in directory: Int32, path: String, creating: Bool) throws(Problem) -> Int32? {
        let what = "the history \"\(TerminalText.line(path))\""
        var status = stat()
        if fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            if let kind = RegularFile.kind(status.st_mode) { throw .refused("\(what) is \(kind), not a file") }
        } else {
            let failure = Errno.current
            guard failure == .noSuchFile else { throw .failed(failure) }
            if !creating { return nil }
        }
        let flags = (creating ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        let fd = openat(directory, name, flags, 0o600)
        guard fd >= 0 else {
            let failure = Errno.current
            // A link put in its place since it was looked at (O_NOFOLLOW).
            if failure == Errno(ELOOP) { throw .refused("\(what) is a symbolic link, not a file") }
            if failure == .noSuchFile && !creating { return nil }
            throw .failed(failure)
        }
        do throws(Problem) {
            guard fstat(fd, &status) == 0 else { throw .failed(.current) }
            if let kind = RegularFile.kind(status.st_mode) { throw .refused("\(what) is \(kind), not a file") }
            try checkOurs(status, what)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The history, open and locked for writing, and still the history: a writer that
    /// rewrote it while this one waited for the lock put a new file in its place, and this
    /// one tries again, within the same wait.
    private static func openCurrentFile(in directory: Int32, path: String) throws(Problem) -> Int32 {
        var wait = lockWait
        while true {
            guard let fd = try openFile(in: directory, path: path, creating: true) else { throw .failed(.noSuchFile) }
            var open = stat()
            var named = stat()
            do throws(Errno) {
                try lock(fd, exclusive: true, wait: &wait)
                guard fstat(fd, &open) == 0 else { throw Errno.current }
            } catch {
                close(fd)
                throw .failed(error)
            }
            if fstatat(directory, name, &named, AT_SYMLINK_NOFOLLOW) == 0 && named.st_ino == open.st_ino && named.st_dev == open.st_dev {
                return fd
            }
            close(fd)
            wait -= 1
        }
    }

    /// Refuses what another user owns or may write (`status`: the descriptor's).
    private static func checkOurs(_ status: stat, _ what: String) throws(Problem) {
        if status.st_uid != geteuid() { throw .refused("\(what) belongs to another user (uid \(status.st_uid))") }
        if status.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            throw .refused("\(what) can be written by other users (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
    }

    // MARK: The calls

    private static func environment(_ name: String) -> String? { Environment.value(name) }

    /// Creates `folder` and the folders above it that are missing, private (0700).
    private static func makeFolders(_ folder: String) throws(Problem) {
        var path = ""
        for component in folder.split(separator: "/") {
            path += "/" + component
            guard mkdir(path, 0o700) != 0 else { continue }
            let failure = Errno.current
            if failure != Errno(EEXIST) { throw .failed(failure) }
        }
    }

    /// Pauses of 2 ms a reader or a writer waits for the lock in all: about a quarter of a
    /// second. A writer holds it for one read and one write, and a stuck one must not hang a toast.
    private static let lockWait = 125

    /// Takes the file's lock, taking its pauses from `wait`.
    private static func lock(_ fd: Int32, exclusive: Bool, wait: inout Int) throws(Errno) {
        while wait > 0 {
            if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return }
            let failure = Errno.current
            guard failure == .wouldBlock || failure == .interrupted else { throw failure }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
            wait -= 1
        }
        throw .wouldBlock
    }

    /// The file's last `HistoryStore.byteLimit` bytes, whether there was more before them, and
    /// its size.
    private static func readEnd(_ fd: Int32) throws(Problem) -> ([UInt8], cut: Bool, size: Int) {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .failed(.current) }
        let size = Int(status.st_size)
        let start = max(0, size - HistoryStore.byteLimit)
        // Read into the array's own storage: a zeroed buffer and then a copy of what was read
        // were two more of up to 256 KiB at the end of every toast.
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: size - start) { buffer, done in
            while done < buffer.count, let base = buffer.baseAddress {
                switch retryingOnInterrupt({ pread(fd, base + done, buffer.count - done, off_t(start + done)) }) {
                case .success(0): return
                case .success(let read): done += read
                case .failure(let error):
                    failure = error
                    return
                }
            }
        }
        if let failure { throw .failed(failure) }
        return (bytes, start > 0, size)
    }

    /// Adds `line` at `size`, the end (the lock keeps other writers out). A write cut short (a
    /// full disk, `ulimit -f`) is taken back, so that the file never ends in half a line.
    private static func append(_ line: [UInt8], to fd: Int32, at size: Int) throws(Problem) {
        do throws(Errno) {
            try write(fd, line, at: size)
        } catch {
            _ = ftruncate(fd, off_t(size))
            throw .failed(error)
        }
    }

    /// Writes the history anew: into a file of its own that then takes the history's place,
    /// so that a write cut short leaves the history as it was. The lock on the old file keeps
    /// other writers out meanwhile; each looks, once it has the lock, whether its file is
    /// still the history (`openCurrentFile`).
    private static func replace(with bytes: [UInt8], in directory: Int32) throws(Problem) {
        // One left by a writer that died between the two; the lock makes this writer the only one.
        unlinkat(directory, newName, 0)
        let fd = openat(directory, newName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(.current) }
        defer { close(fd) }
        do throws(Errno) {
            try write(fd, bytes, at: 0)
            guard renameat(directory, newName, directory, name) == 0 else { throw Errno.current }
        } catch {
            unlinkat(directory, newName, 0)
            throw .failed(error)
        }
    }

    /// Writes all of `bytes` at `offset`.
    private static func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let count = try retryingOnInterrupt {
                bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            }.get()
            guard count > 0 else { throw Errno.ioError }
            done += count
        }
    }
}
