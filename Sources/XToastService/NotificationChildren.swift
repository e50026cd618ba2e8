import Glibc
import XToastCore
import XToastRender

/// The toasts of the notification service: one `xtoast` process per notification, started
/// from this same binary, each an ordinary toast in the display's queue. At most
/// `runningLimit` run at once; the rest wait here, in order, and none is lost.
final class NotificationChildren {
    /// One notification's toast, running or waiting for a place.
    final class Entry {
        let id: UInt32
        let toast: NotificationToast
        /// A PNG this service wrote for the toast's icon, removed when the toast ends.
        let imageFile: String?
        /// 0 while waiting.
        var pid: pid_t = 0
        /// The read end of its standard output.
        var output: Int32 = -1
        /// CloseNotification asked for its end.
        var closedByCall = false

        init(id: UInt32, toast: NotificationToast, imageFile: String?) {
            (self.id, self.toast, self.imageFile) = (id, toast, imageFile)
        }
    }

    /// Toast processes alive at most: a flood of Notify calls must not start thousands of
    /// processes, each an X client. More wait in `waiting`.
    static let runningLimit = 32
    /// Bytes of a toast's output read at most (`--print-outcome`'s word and a label).
    static let outputLimit = 4096

    /// The newest entry of each notification id still alive.
    private(set) var current: [UInt32: Entry] = [:]
    private var running: [pid_t: Entry] = [:]
    private var waiting: [Entry] = []
    /// Called once a child runs, to watch for its end.
    let watch: (pid_t) -> Void
    let warn: (String) -> Void

    init(watch: @escaping (pid_t) -> Void, warn: @escaping (String) -> Void) {
        (self.watch, self.warn) = (watch, warn)
    }

    var isEmpty: Bool { current.isEmpty && running.isEmpty && waiting.isEmpty }

    /// Shows `entry`, replacing the toast of the same id if one is alive.
    func show(_ entry: Entry) {
        if let old = current[entry.id] {
            if old.pid == 0, let index = waiting.firstIndex(where: { $0 === old }) {
                // Not started yet: the new one takes its place in line.
                waiting[index] = entry
                current[entry.id] = entry
                remove(old.imageFile)
                return
            }
            // Running: the same tag replaces it in place; a new tag would leave it up.
            if old.toast.tag != entry.toast.tag { kill(old.pid, SIGUSR1) }
        }
        current[entry.id] = entry
        waiting.append(entry)
        startWaiting()
    }

    /// CloseNotification: the toast is dismissed whatever its phase; true when it was waiting
    /// here (then it is gone, and the caller says so), false when its process will say.
    func close(id: UInt32) -> Bool? {
        guard let entry = current[id] else { return nil }
        if entry.pid == 0 {
            waiting.removeAll { $0 === entry }
            current[id] = nil
            remove(entry.imageFile)
            return true
        }
        entry.closedByCall = true
        kill(entry.pid, SIGUSR1)
        return false
    }

    /// A child ended: its entry, with what it printed, if it is still its id's newest (else it
    /// was replaced by a newer toast of the same notification, and nothing is said about it).
    func ended(_ pid: pid_t, status: Int32) -> (entry: Entry, output: String)? {
        guard let entry = running.removeValue(forKey: pid) else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while bytes.count < Self.outputLimit {
            let count = read(entry.output, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        Glibc.close(entry.output)
        remove(entry.imageFile)
        defer { startWaiting() }
        guard current[entry.id] === entry else { return nil }
        current[entry.id] = nil
        if bytes.isEmpty && status != 0 { warn("the toast of notification \(entry.id) failed (status \(status))") }
        return (entry, String(decoding: bytes, as: UTF8.self))
    }

    private func startWaiting() {
        while running.count < Self.runningLimit, !waiting.isEmpty {
            let entry = waiting.removeFirst()
            do throws(SpawnError) {
                (entry.pid, entry.output) = try Self.spawn(entry.toast.arguments)
                running[entry.pid] = entry
                watch(entry.pid)
            } catch {
                warn("cannot start the toast of notification \(entry.id): \(error.description)")
                current[entry.id] = nil
                remove(entry.imageFile)
            }
        }
    }

    private func remove(_ file: String?) {
        if let file { unlink(file) }
    }

    struct SpawnError: Error {
        var description: String
    }

    /// Starts this program with `arguments`: standard input from /dev/null, standard output to
    /// a pipe (non-blocking at our end: it is read once the child has ended), the signals
    /// back to their defaults.
    static func spawn(_ arguments: [String]) throws(SpawnError) -> (pid_t, Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SpawnError(description: Errno.current.description) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        let spawn = SpawnAttributes()
        let words = (["xtoast"] + arguments).map { strdup($0) } + [nil]
        defer { words.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/proc/self/exe", &actions, &spawn.attributes, words, environ)
        Glibc.close(ends[1])
        guard result == 0 else {
            Glibc.close(ends[0])
            throw SpawnError(description: Errno(result).description)
        }
        return (pid, ends[0])
    }
}
