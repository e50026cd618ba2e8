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
}
