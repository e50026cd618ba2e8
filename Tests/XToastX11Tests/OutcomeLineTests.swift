import CX11
import Foundation
import Testing

/// `--print-outcome` says how a toast ended in one line each: a terminating signal is
/// `terminated`, a button's label is one line whatever the label given.
extension OnScreen {
    @Suite struct OutcomeLines {
        @Test func aTerminatingSignalIsTerminated() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let toast = try XToastProcess(["--duration", "sticky", "--print-outcome", "Until killed"], display: display)
            _ = try watcher.waitForToasts()
            toast.signal(SIGTERM)
            let result = try toast.wait()
            #expect(result.stdout == "terminated\n")
            #expect(result.status == 128 + SIGTERM)
        }

        @Test func aButtonLabelIsOneLine() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let asking = try XToastProcess(
                ["--duration", "sticky", "--monitor", "L", "--print-outcome", "--button", "Yes\nplease", "Continue?"], display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            // One button: the middle of the row, 10 px padding + half of a 26 px button up.
            try click((frame.x + frame.width / 2 - 4, frame.y + frame.height - 23, 8, 1), display: display)
            let answer = try asking.wait()
            #expect(answer.stdout == "button\nYes please\n")
            try expectOthersStillShow(display, watcher)
        }
    }
}
