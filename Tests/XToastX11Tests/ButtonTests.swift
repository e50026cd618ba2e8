import CX11
import Foundation
import Testing

/// `--button`: a row of buttons under the text; a click on one prints its label.
extension OnScreen {
    @Suite struct Buttons {
        /// Two buttons side by side along the box's bottom: a click on the right half of the row
        /// is "No", on the text above it is a plain click.
        @Test func aClickOnAButtonPrintsItsLabel() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let arguments = ["--duration", "sticky", "--monitor", "L", "--print-outcome", "--button", "Yes", "--button", "No", "Delete?"]
            let asking = try XToastProcess(arguments, display: display)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            // The row's middle, 10 px padding + half of a 26 px button above the bottom.
            let row = frame.y + frame.height - 10 - 13
            try click((frame.x + frame.width / 2 + 4, row, frame.width / 2 - 20, 1), display: display)
            let answer = try asking.wait()
            #expect(answer.status == 0)
            #expect(answer.stdout == "button\nNo\n")

            let again = try XToastProcess(arguments, display: display)
            let second = try #require(try watcher.waitForToasts().first)
            let box = try #require(watcher.geometry(second))
            try click((box.x, box.y + 4, box.width, 8), display: display)
            let plain = try again.wait()
            #expect(plain.status == 0)
            #expect(plain.stdout == "clicked\n")
            try expectOthersStillShow(display, watcher)
        }

        @Test func buttonsNeedTheCallerToWait() throws {
            let result = try XToastProcess.run(["-b", "--button", "OK", "Hello"], display: nil)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("xtoast: --detach returns at once: it cannot be used with --button"), "\(result.stderr)")
        }
    }
}
