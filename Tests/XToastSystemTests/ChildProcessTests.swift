import Glibc
import Testing
import XToastSystem

/// The platform layer's one decoder of wait statuses and its child processes, on real children.
@Suite struct ChildProcessTests {
    static let statuses: [(Int32, WaitStatus)] = [
        (0, .exited(0)), (3 << 8, .exited(3)), (255 << 8, .exited(255)), (9, .signalled(9)), (15 | 0x80, .signalled(15)),
    ]

    @Test(arguments: statuses)
    func waitStatusesDecode(raw: Int32, expected: WaitStatus) {
        #expect(WaitStatus(raw: raw) == expected)
    }

    @Test func aShellSaysTheStatusAsAShellDoes() {
        #expect(WaitStatus.exited(3).shellStatus == 3)
        #expect(WaitStatus.signalled(SIGKILL).shellStatus == 137)
    }

    @Test func aSpawnedProgramsExitAndSignalAreRead() throws {
        let exiting = try ChildProcess.spawnSearchingPath(arguments: ["sh", "-c", "exit 7"])
        #expect(ChildProcess.wait(exiting) == .exited(7))
        let killed = try ChildProcess.spawnSearchingPath(arguments: ["sh", "-c", "kill -TERM $$"])
        #expect(ChildProcess.wait(killed) == .signalled(SIGTERM))
    }

    /// A program spawned with a signal held blocked keeps it pending instead of dying of it
    /// (what a toast process needs until it reads its signals); without, it dies of it.
    @Test(arguments: [true, false])
    func aBlockedSignalIsHeldForTheChild(blocked: Bool) throws {
        let child = try ChildProcess.spawn("/bin/sleep", arguments: ["sleep", "30"], blocked: blocked ? [SIGUSR1] : [])
        kill(child, SIGUSR1)
        guard blocked else {
            #expect(ChildProcess.wait(child) == .signalled(SIGUSR1))
            return
        }
        // Pending for the process, and it lives on.
        let status = try RegularFile.read("/proc/\(child)/status", limit: 8192)
        let pending = String(decoding: status.bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("ShdPnd:") }
        #expect(pending.flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }.map { $0 & (1 << (SIGUSR1 - 1)) != 0 } == true)
        #expect(ChildProcess.reap(child) == nil)
        kill(child, SIGKILL)
        #expect(ChildProcess.wait(child) == .signalled(SIGKILL))
    }

    @Test func reapSaysNothingWhileTheChildRuns() throws {
        let child = try ChildProcess.spawnSearchingPath(arguments: ["sleep", "5"])
        #expect(ChildProcess.reap(child) == nil)
        kill(child, SIGKILL)
        #expect(ChildProcess.wait(child) == .signalled(SIGKILL))
    }

    @Test func emptyVariablesAreUnset() {
        Environment.set("XTOAST_SYSTEM_TEST", to: "")
        #expect(Environment.value("XTOAST_SYSTEM_TEST") == nil)
        #expect(Environment.exactValue("XTOAST_SYSTEM_TEST") == "")
        Environment.unset("XTOAST_SYSTEM_TEST")
        #expect(!Environment.isSet("XTOAST_SYSTEM_TEST"))
    }

    /// A program started detached (the opener of a link) runs on its own: it is not our child,
    /// it is in a session of its own, its standard descriptors go nowhere, nothing else of ours
    /// is open in it, no signal is blocked or ignored, and the call returns while it still runs.
    @Test func aDetachedProgramRunsOnItsOwn() throws {
        // Ignored and blocked here (as xtoast ignores SIGPIPE and blocks the signals it reads),
        // but not in the program.
        signal(SIGPIPE, SIG_IGN)
        var blocked = sigset_t()
        var saved = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR2)
        pthread_sigmask(SIG_BLOCK, &blocked, &saved)
        // `sleep` changes none of that, and its argument finds it.
        let seconds = "30.\(getpid())"
        let started = Clock.monotonic()
        try ChildProcess.spawnDetached(arguments: ["sleep", seconds])
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        #expect(Clock.monotonic() - started < 2)
        let pid = try #require(Self.process(commandLine: ["sleep", seconds]))
        defer { kill(pid, SIGKILL) }

        let stat = (try? RegularFile.read("/proc/\(pid)/stat", limit: 4096)).map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        // pid (comm) state ppid pgrp session …
        let fields = stat.split(separator: ")").last?.split(separator: " ").map(String.init) ?? []
        try #require(fields.count > 4, "\(stat)")
        #expect(pid_t(fields[1]) != getpid())
        #expect(pid_t(fields[3]) != getsid(0))
        #expect(Self.descriptors(of: pid) == ["0", "1", "2"])
        for descriptor in 0...2 {
            var target = [CChar](repeating: 0, count: 256)
            let length = readlink("/proc/\(pid)/fd/\(descriptor)", &target, target.count - 1)
            #expect(length > 0 && String(cString: target) == "/dev/null")
        }
        let status = (try? RegularFile.read("/proc/\(pid)/status", limit: 8192)).map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        func mask(_ name: String) -> UInt64? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap {
                UInt64($0.split(separator: "\t").last ?? "", radix: 16)
            }
        }
        #expect(mask("SigBlk") == 0)
        // Signals 1 to 31; glibc's own (32, 33) are not ours to set.
        #expect(mask("SigIgn").map { $0 & 0x7fff_ffff } == 0)
    }

    /// A child forked by another thread, which does not exec and lives on, never holds the
    /// pipe that tells a detached program's start (or a drawing child's end): the caller would
    /// wait for that other child's end. Another thread forks children that live 3 s as fast as
    /// it can while programs are started detached; each start returns at once.
    @Test func aChildForkedMeanwhileHoldsNoneOfAnothersPipe() async throws {
        let forker = Task.detached {
            var children: [pid_t] = []
            for _ in 0..<150 {
                guard case .parent(let child, let ends) = try? ChildProcess.fork(pipes: [.fromChild]) else {
                    // Only sleeping and exiting in the child: safe with the test's threads.
                    Glibc.sleep(3)
                    _exit(0)
                }
                ends.forEach { close($0) }
                children.append(child)
            }
            return children
        }
        var slowest = 0.0
        for _ in 0..<30 {
            let started = Clock.monotonic()
            try ChildProcess.spawnDetached(arguments: ["true"])
            slowest = max(slowest, Clock.monotonic() - started)
        }
        for child in await forker.value {
            kill(child, SIGKILL)
            _ = ChildProcess.wait(child)
        }
        #expect(slowest < 2, "a detached start waited \(slowest) s")
    }

    /// The process whose command line is `arguments`, waited for a while.
    static func process(commandLine arguments: [String]) -> pid_t? {
        let wanted = Array(arguments.joined(separator: "\0").utf8) + [0]
        for _ in 0..<500 {
            guard let folder = opendir("/proc") else { return nil }
            defer { closedir(folder) }
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                guard let pid = pid_t(name), let line = try? RegularFile.read("/proc/\(pid)/cmdline", limit: 4096) else { continue }
                if line.bytes == wanted { return pid }
            }
            usleep(10_000)
        }
        return nil
    }

    /// The descriptors `pid` holds open, by number.
    static func descriptors(of pid: pid_t) -> [String] {
        guard let folder = opendir("/proc/\(pid)/fd") else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    @Test func aDetachedProgramThatCannotStartSaysWhy() {
        #expect(throws: Errno.noSuchFile) { try ChildProcess.spawnDetached(arguments: ["xtoast-no-such-program"]) }
        let path = "/tmp/xtoast-not-executable-\(getpid())"
        close(open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644))
        defer { unlink(path) }
        #expect(throws: Errno(EACCES)) { try ChildProcess.spawnDetached(arguments: [path]) }
    }
}
