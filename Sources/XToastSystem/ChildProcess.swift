import CSystem
import Glibc

/// How a child process ended, from `waitpid`'s status: the one decoder of wait statuses.
public enum WaitStatus: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    public init(raw: Int32) {
        self = xtoast_signalled(raw) != 0 ? .signalled(xtoast_term_signal(raw)) : .exited(xtoast_exit_code(raw))
    }

    /// As a shell says it: the exit status, or 128 + the signal's number.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let code): "status \(code)"
        case .signalled(let signal): "signal \(signal)"
        }
    }
}

/// Starting and ending child processes: the one home of `fork`, `posix_spawn` and `waitpid`.
public enum ChildProcess {
    /// Waits for `pid` to end (however many signals interrupt the wait).
    public static func wait(_ pid: pid_t) -> WaitStatus? {
        var status: Int32 = 0
        guard case .success(let ended) = retryingOnInterrupt({ waitpid(pid, &status, 0) }), ended == pid else { return nil }
        return WaitStatus(raw: status)
    }

    /// How `pid` ended, if it has (and reaps it); nil while it runs.
    public static func reap(_ pid: pid_t) -> WaitStatus? {
        var status: Int32 = 0
        guard case .success(let ended) = retryingOnInterrupt({ waitpid(pid, &status, WNOHANG) }), ended == pid else { return nil }
        return WaitStatus(raw: status)
    }

    /// Which side of a fork this is, with its ends of the pipes made for the child (in the
    /// order asked for).
    public enum Side: Equatable {
        case parent(child: pid_t, ends: [Int32])
        case child(ends: [Int32])
    }

    /// Which way a pipe made for a forked child goes: its reading end is the child's
    /// (`toChild`) or ours (`fromChild`).
    public enum PipeDirection {
        case toChild
        case fromChild
    }

    /// Forks, with a pipe for each of `pipes`. Safe only while the process has one thread
    /// (`threadCount`), or when the child touches nothing another thread may have locked
    /// (`ImageSandbox`'s drawing child). `blocking`: signals blocked across the fork and in the
    /// child, so that one sent to the child before it reads them is held, not taken by its
    /// default action; the parent's mask is given back.
    ///
    /// The pipes are made, the child forked and its ends closed here under one lock: a child
    /// that does not exec inherits every descriptor open at its fork, close-on-exec or not, and
    /// one forked by another thread in between would hold our child's writing end, so that we
    /// would read its end of file only when that other child ends.
    public static func fork(blocking signals: [Int32] = [], pipes directions: [PipeDirection] = []) throws(Errno) -> Side {
        try withNoOtherFork { () throws(Errno) -> Side in
            var pipes: [Pipe] = []
            do throws(Errno) {
                for _ in directions { pipes.append(try Pipe()) }
            } catch {
                pipes.forEach { $0.close() }
                throw error
            }
            var set = sigset_t()
            var saved = sigset_t()
            sigemptyset(&set)
            for signal in signals { sigaddset(&set, signal) }
            pthread_sigmask(SIG_BLOCK, &set, &saved)
            let pid = Glibc.fork()
            let failure = pid < 0 ? Errno.current : nil
            if pid != 0 { pthread_sigmask(SIG_SETMASK, &saved, nil) }
            if let failure {
                pipes.forEach { $0.close() }
                throw failure
            }
            // This side reads a pipe to the child in the child, one from it in the parent.
            let ours = zip(pipes, directions).map { pipe, direction in
                let reads = (pid == 0) == (direction == .toChild)
                Glibc.close(reads ? pipe.write : pipe.read)
                return reads ? pipe.read : pipe.write
            }
            return pid == 0 ? .child(ends: ours) : .parent(child: pid, ends: ours)
        }
    }

    /// Runs `body` (which makes descriptors for one child, forks it and closes the child's ends
    /// in this process) while no other thread of this process does the same: see `fork`.
    static func withNoOtherFork<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(forking.mutex)
        // In a forked child the lock is its copy of the one held here, released all the same.
        defer { pthread_mutex_unlock(forking.mutex) }
        return try body()
    }

    /// The threads of this process (/proc/self/task); 0 when it cannot be read.
    public static func threadCount() -> Int {
        guard let folder = opendir("/proc/self/task") else { return 0 }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != 0x2E { count += 1 }  // not "." or ".."
        }
        return count
    }

    /// What a spawned program's standard descriptors are: `dup2`ed from these (nil: inherited).
    public struct StandardDescriptors {
        public var input: Int32?
        public var output: Int32?
        public var error: Int32?

        public init(input: Int32? = nil, output: Int32? = nil, error: Int32? = nil) {
            (self.input, self.output, self.error) = (input, output, error)
        }
    }

    /// Starts `path` with `arguments` (the first is its name) and `environment` (nil: ours), its
    /// signals as `SpawnAttributes` sets them (`blocked`: these held blocked, for a program that
    /// reads them itself first thing), its standard descriptors from `standard`. Its pid.
    public static func spawn(
        _ path: String, arguments: [String], environment: [String]? = nil, standard: StandardDescriptors = StandardDescriptors(),
        blocked: [Int32] = []
    ) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(standard.input, 0), (standard.output, 1), (standard.error, 2)] {
            if let descriptor { posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(target)) }
        }
        let attributes = SpawnAttributes(blocked: blocked)
        let words = arguments.map { strdup($0) } + [nil]
        let variables = (environment ?? Environment.all()).map { strdup($0) } + [nil]
        defer { (words + variables).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes.attributes, words, variables)
        guard result == 0 else { throw Errno(result) }
        return pid
    }

    /// Starts `arguments` (the first looked up on `PATH`) detached: in a session of its own,
    /// adopted by init, its standard descriptors on /dev/null, with our environment and the
    /// default handling of every signal. Nothing waits for it or reaps it: this returns once it
    /// runs (the child between us ends at once, and its exec is confirmed through a pipe), and
    /// throws when it could not be started (not found, not executable).
    public static func spawnDetached(arguments: [String], environment: [String]? = nil) throws(Errno) {
        guard let name = arguments.first, let path = lookUp(name) else { throw .noSuchFile }
        let words = arguments.map { strdup($0) } + [nil]
        let variables = (environment ?? Environment.all()).map { strdup($0) } + [nil]
        defer { (words + variables).forEach { free($0) } }
        let (child, report) = try withNoOtherFork { () throws(Errno) -> (pid_t, Int32) in
            let report = try Pipe()
            let child = xtoast_fork_detached(path, words, variables, report.write)
            let failure = child < 0 ? Errno.current : nil
            Glibc.close(report.write)
            if let failure {
                Glibc.close(report.read)
                throw failure
            }
            return (child, report.read)
        }
        defer { Glibc.close(report) }
        // The child only forks and ends: a status other than 0 is a fork that failed there.
        guard wait(child) == .exited(0) else { throw Errno(EAGAIN) }
        // Its end (the exec closed it) or the exec's errno.
        var code: Int32 = 0
        let result = retryingOnInterrupt { Glibc.read(report, &code, MemoryLayout<Int32>.size) }
        if case .success(let count) = result, count == MemoryLayout<Int32>.size { throw Errno(code) }
    }

    /// The program `name` runs as, as a shell finds it: `name` itself when it has a slash, else
    /// the first executable file of that name in a folder of `PATH`.
    public static func lookUp(_ name: String) -> String? {
        guard !name.isEmpty else { return nil }
        if name.contains("/") { return name }
        let folders = (Environment.value("PATH") ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        for folder in folders {
            let path = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var status = stat()
            if access(path, X_OK) == 0, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { return path }
        }
        return nil
    }

    /// Like `spawn`, but looks `arguments[0]` up on `PATH` (as a shell does); `environment`
    /// nil: ours; `ownGroup`: in a process group of its own (see `SpawnAttributes`).
    public static func spawnSearchingPath(
        arguments: [String], environment: [String]? = nil, standard: StandardDescriptors = StandardDescriptors(),
        ownGroup: Bool = false
    ) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(standard.input, 0), (standard.output, 1), (standard.error, 2)] {
            if let descriptor { posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(target)) }
        }
        let attributes = SpawnAttributes(ownGroup: ownGroup)
        let words = arguments.map { strdup($0) } + [nil]
        let variables = (environment ?? Environment.all()).map { strdup($0) } + [nil]
        defer { (words + variables).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes.attributes, words, variables)
        guard result == 0 else { throw Errno(result) }
        return pid
    }
}

/// The lock of `ChildProcess.withNoOtherFork`.
private final class ForkLock: @unchecked Sendable {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() { pthread_mutex_init(mutex, nil) }
}

private let forking = ForkLock()
