import Glibc
import XToastCore
import XToastRender
import XToastX11

/// Exit statuses, as documented in the README, `--help` and the man page.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}

/// One line on standard error, written whole, with any control character in the values it
/// quotes made visible and a huge value shortened.
func printError(_ line: String) {
    var text = TerminalText.line(line) + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// Each warning is printed once per process, however often it happens: another client can send
/// thousands of malformed messages, and a flood into a pipe nobody reads would stall the toast.
func warn(_ message: String) {
    if Warnings.unsaid.contains(message) { return }
    if Warnings.shouldPrint(message) { printError("xtoast: warning: \(message)") }
}

/// The program, from setting up the process to its exit status: a command's, or the status of
/// the error that stopped it, whose line is printed here, `xtoast: message`, once.
func runProgram() -> Int32 {
    // 0. The process. The signals a toast reads wait for its loop, whatever thread a library
    //    starts before it (see Wakeups.blockHandledSignals). Too small a stack would end in
    //    SIGSEGV without a word once drawing starts: with a limit that cannot be raised, the
    //    program runs again from main on a stack of its own (first, while it has used the least
    //    of the small one), and this run ends there. No closed standard descriptor for the X
    //    connection to take, and output to a reader that went away is an error to report
    //    (EPIPE), not a silent death by SIGPIPE; so is a write past `ulimit -f` (EFBIG, not
    //    SIGXFSZ): the history is written after the toast showed, and its failure is a warning,
    //    never the toast's status.
    Wakeups.blockHandledSignals()
    do throws(CommandError) {
        do {
            try DrawingStack.ensure(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
        } catch {
            throw .failure(error.description)
        }
        Output.occupyClosedStandardDescriptors()
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)

        // 1. Whom this process answers to, once; its command line alone, then everything else:
        //    see XToastCommand.
        let caller = try Caller(arguments: CommandLine.arguments)
        Warnings.unsaid = caller.unsaidWarnings
        switch caller {
        case .commandLine: return try XToastCommand(arguments: Array(CommandLine.arguments.dropFirst())).run()
        case .notifySend(let invocation): return try NotifySendMode.run(invocation)
        case .notificationService: return try NotificationChildMode.run()
        }
    } catch {
        printError("xtoast: \(error.message)")
        return error.status
    }
}

// The one exit for every ordinary end: the notification service's forked toast process and
// `--detach`'s caller come back here with their statuses too.
exit(runProgram())
