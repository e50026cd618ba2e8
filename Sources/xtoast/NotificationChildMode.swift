import Glibc
import XToastCore
import XToastRender
import XToastSystem
import XToastX11

/// A notification's toast process (`NotificationChild`): started by the notification service
/// before there is work for it, it gets ready (linked, connected to the display, fonts loading)
/// and then waits for its command line on standard input; it tells the service when its place
/// in the queue is on the server, and how the toast ended.
enum NotificationChildMode {
    /// Started by the service: gets ready, reads the command line and runs it; the exit status.
    /// Ends without a word (status 0) when the service ended before it had work for this process.
    static func run() throws(CommandError) -> Int32 { try run(forked: false) }

    /// The service's first toast process, forked from it (`NotificationService.forkToastProcess`):
    /// a toast process from here on, as if started by exec. Its signals are the toast's again.
    static func runForked() throws(CommandError) -> Int32 {
        Wakeups.blockHandledSignals()
        return try run(forked: true)
    }

    private static func run(forked: Bool) throws(CommandError) -> Int32 {
        guard let (arguments, display) = try commandLine(forked: forked) else { return ExitStatus.success }
        var command = try XToastCommand(arguments: arguments, caller: .notificationService)
        command.waitingDisplay = display
        return try command.run()
    }

    /// Gets ready, then reads the command line: it, and the display opened while waiting; nil
    /// when the service ended before it had work for this process. `forked`: forked before the
    /// service opened the display itself; a display that cannot be used is then the service's
    /// to say (one line): this process says nothing until it has work.
    private static func commandLine(forked: Bool) throws(CommandError) -> (arguments: [String], display: XDisplay)? {
        // Nothing this process starts is the service's child.
        Environment.unset(NotificationChild.environmentVariable)
        Output.lostReader = .isQuiet
        let errors = forked ? Output.silenceStandardError() : nil
        startLoadingFonts()
        let display: XDisplay
        do {
            display = try XDisplay(name: nil)
        } catch {
            // Forked, standard error is still silenced: main's line about it goes nowhere.
            throw .failure(error.description)
        }
        // Only while there is time: work already waiting (a service just started by the bus for
        // it) would wait for a layout the toast does anyway.
        if !Descriptor.waitReadable(0, until: 0) { warmUpText(font: Style.toast.font) }
        // Waiting for work is not waiting for the server: no watchdog meanwhile.
        let bytes = display.idle {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            while bytes.count <= NotificationChild.argumentsByteLimit {
                guard case .success(let count) = retryingOnInterrupt({ read(0, &buffer, buffer.count) }), count > 0 else { break }
                bytes += buffer[0..<count]
            }
            return bytes
        }
        if let errors { Output.restoreStandardError(errors) }
        guard let arguments = NotificationChild.decode(bytes) else {
            throw .failure("the notification service sent a command line cut short")
        }
        return arguments.isEmpty ? nil : (arguments, display)
    }

    /// Tells the service that the toast's place in the queue is on the server. A service that
    /// went away meanwhile is no reason not to show: the line is then lost, without a word.
    static func queued() {
        var line = NotificationChild.queuedLine + "\n"
        line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
    }

    /// After the outcome's lines: the X server time of the click that ended the toast.
    static func report(clickTime: UInt32?) throws(CommandError) {
        if let clickTime { try Output.write(NotificationChild.timeLine(clickTime) + "\n") }
    }
}
