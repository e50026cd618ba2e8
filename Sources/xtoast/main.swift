import ArgumentParser
import Glibc
import XToastCore
import XToastRender
import XToastX11

/// Exit statuses, as documented in the README and `--help`.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}

/// One line on standard error, written whole.
func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

func warn(_ message: String) {
    printError("xtoast: warning: \(message)")
}

/// Prints `xtoast: message` once and exits: the only place that decides an exit status.
func die(_ message: String, status: Int32) -> Never {
    printError("xtoast: \(message)")
    exit(status)
}

/// ArgumentParser's messages start with a capital and may run over several lines: one line,
/// lowercase first letter, as every xtoast error.
func usageLine(for error: Error) -> String {
    let text = Options.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid usage"
    return (text.first.map { $0.lowercased() + text.dropFirst() } ?? text) + " (see xtoast --help)"
}

let options: Options
do {
    options = try Options.parse()
} catch {
    let code = Options.exitCode(for: error)
    if code == .success {  // --help, --version
        print(Options.fullMessage(for: error))
        exit(ExitStatus.success)
    }
    die(usageLine(for: error), status: ExitStatus.usage)
}

let settings: Settings
do {
    settings = try Settings(options)
} catch {
    die(error.message, status: ExitStatus.usage)
}

if options.dismiss || options.dismissAll || options.cancelScheduled {
    do {
        let display = try XDisplay(name: options.display)
        let tag = options.tag
        let list = options.cancelScheduled ? display.atoms.scheduled : display.atoms.queue
        _ = display.send(.dismiss, in: list) { tickets in
            if let tag { return tickets.filter { $0.1.tag == tag } }
            return options.dismiss ? Array(tickets.prefix(1)) : tickets
        }
    } catch {
        die(error.description, status: ExitStatus.failure)
    }
    exit(ExitStatus.success)
}

let input = Input.message(arguments: options.message)
let message: String
do {
    message = try MessageText.normalize(input.text)
} catch {
    die("empty message: give the text as arguments or on standard input", status: ExitStatus.usage)
}
if input.repaired { warn("the message is not valid UTF-8; invalid bytes are shown as \u{FFFD}") }

if let path = options.renderPNG {
    let metrics = ToastMetrics(style: settings.style, scale: settings.scale ?? 1, monitorWidth: Style.headlessMonitorWidth)
    let painter = ToastPainter(message: message, style: settings.style, metrics: metrics)
    do {
        try painter.image().writePNG(to: path)
    } catch {
        die(error.description, status: ExitStatus.failure)
    }
    exit(ExitStatus.success)
}

let outcome: Outcome
do {
    let wakeups = try Wakeups()
    var request = ToastRequest(
        message: message, style: settings.style, duration: settings.duration, monitor: settings.monitor,
        scale: settings.scale, displayName: options.display, tag: options.tag, delivery: settings.delivery,
        stack: options.stack)
    request.rescheduleAfterZoneChange = settings.reschedule
    // The session (and with it the window and the connection) is gone before the exit below.
    outcome = try ToastSession(request, wakeups: wakeups, warn: warn).run(queued: {
        if options.detach { Detach.now() }
    })
} catch {
    die(error.description, status: ExitStatus.failure)
}
if options.printOutcome { print(outcome.word(action: options.action)) }
exit(outcome.exitStatus(action: options.action))
