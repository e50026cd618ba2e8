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
    // As notify-send, markup that does not parse is shown plain without a word, as daemons do.
    if NotifySendMode.isOn && message == ToastPainter.markupWarning { return }
    if Warnings.shouldPrint(message) { printError("xtoast: warning: \(message)") }
}

/// Prints `xtoast: message` once and exits: the only place that decides an exit status.
func die(_ message: String, status: Int32) -> Never {
    printError("xtoast: \(message)")
    exit(status)
}

func usageError(_ message: String) -> Never {
    die(message + " (see xtoast --help)", status: ExitStatus.usage)
}

// 0. The process. Too small a stack would end in SIGSEGV without a word once drawing starts:
//    with a limit that cannot be raised, the program runs again from here on a stack of its
//    own (first, while it has used the least of the small one). No closed standard descriptor
//    for the X connection to take, and output to a reader that went away is an error to
//    report (EPIPE), not a silent death by SIGPIPE.
do {
    try DrawingStack.ensure(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
} catch {
    die(error.description, status: ExitStatus.failure)
}
Output.occupyClosedStandardDescriptors()
signal(SIGPIPE, SIG_IGN)

// 1. The command line alone: checked first, so that a typo is a usage error even where there
//    is no display, and so that --config, --preset and --display are known.
let parsed: CommandLineParser.Parsed
var commandLineOnly = ConfigurationBuilder()
do {
    parsed = try CommandLineParser.parse(NotifySendMode.arguments)
    try commandLineOnly.apply(commandLine: parsed.options)
} catch {
    usageError(error.message)
}
let request = commandLineOnly.configuration

switch request.mode {
case .help:
    Output.write(Documentation.help)
    exit(ExitStatus.success)
case .version:
    Output.write(Documentation.version + "\n")
    exit(ExitStatus.success)
case .generateManual:
    Output.write(Documentation.manual)
    exit(ExitStatus.success)
case .generateCompletion(let shell):
    Output.write(Documentation.completion(for: shell))
    exit(ExitStatus.success)
case .show:
    // Not when detaching: Pango loads them on a thread, and the fork must come while there is one.
    if !request.detach { startLoadingFonts() }
case .dismiss, .dismissAll, .cancelScheduled, .printConfig:
    break
}

// 2. What to show and when, from the command line alone.
let delivery: Delivery
var reschedule: (@Sendable () -> Double?)?
do {
    (delivery, reschedule) = try Scheduling.delivery(for: request)
} catch {
    usageError(error.message)
}

var message = ""
let runCommand: [String]?
do {
    runCommand = try Invocation.check(request, parsed)
} catch {
    usageError(error.message)
}
if request.mode == .show, let command = runCommand {
    // The message is the words before --, or the command line.
    let words = parsed.wordsBeforeDoubleDash
    message = (try? MessageText.normalize(MessageText.join(words.isEmpty ? command : words))) ?? command.joined(separator: " ")
} else if request.mode == .show && request.followStandardInput && parsed.words.isEmpty {
    // The first line read is the first text shown.
    guard let line = Input.firstLine(), let text = try? MessageText.normalize(line) else {
        die("empty message: standard input ended before a line of text", status: ExitStatus.usage)
    }
    message = text
} else if request.mode == .show {
    let input = Input.message(arguments: parsed.words)
    do {
        message = try MessageText.normalize(input.text)
    } catch {
        die("empty message: give the text as arguments or on standard input", status: ExitStatus.usage)
    }
    if input.repaired { warn("the message is not valid UTF-8; invalid bytes are shown as \u{FFFD}") }
}

// 3. The other sources: X resources (from the server, when there is one) and the config file.
let needsDisplay = request.renderPNG == nil
if request.mode == .show && request.detach && needsDisplay {
    // Before connecting, so that the caller never waits on the server: it waits (bounded) for
    // the child's word that the toast is queued, or for its error.
    Detach.start()
}
var display: XDisplay?
var displayError: X11Error?
if needsDisplay {
    do {
        display = try XDisplay(name: request.display)
    } catch {
        displayError = error
    }
}
if let displayError, request.mode != .printConfig {
    die(displayError.description, status: ExitStatus.failure)
}
let resources = XResources.entries(in: display?.resourceString ?? "")
let configFile = ConfigSource.load(request)

var builder = ConfigurationBuilder()
let builtIn = builder.apply(builtInPreset: request.preset ?? "toast")
builder.apply(resources: resources, preset: request.preset)
if let configFile { builder.apply(file: configFile.file, path: configFile.path, preset: request.preset) }
try! builder.apply(commandLine: parsed.options)  // already checked above
for warning in builder.warnings { warn(warning) }
var settings = builder.configuration

if let preset = settings.preset, !builtIn {
    let known = Set(resources.compactMap(\.preset)).union(configFile?.file.sections.keys.map { $0 } ?? [])
    if !known.contains(preset) {
        let names = (Style.presets.keys.sorted() + known.sorted()).joined(separator: ", ")
        usageError("unknown preset \"\(preset)\" (presets: \(names))")
    }
}
// The user's icon theme, when a desktop publishes it (only needed for icon names).
var iconTheme: String?
if case .named = settings.icon, let bytes = display?.xsettings() { iconTheme = XSettings.iconTheme(bytes) }
if let icon = settings.icon {
    do {
        try ToastPainter.check(icon: icon, theme: iconTheme)
    } catch {
        // Asked for in this call, a bad icon is an error; from a file or the X resources (which
        // any client can set) it must not silence every toast.
        guard let origin = builder.origins["icon"], origin.source != .commandLine else {
            die(error.description, status: ExitStatus.failure)
        }
        warn("\(origin.source): icon: \(error.description); showing the toast without it")
        settings.icon = nil
    }
}

if settings.mode == .printConfig {
    var report = builder.report + "\n"
    if let displayError { report += "# X resources not read: \(displayError.description)\n" }
    report += configFile.map { "# config file: \($0.path)\n" } ?? "# no config file read\n"
    Output.write(report)
    exit(ExitStatus.success)
}

// 4. Commands to other toasts.
if settings.mode != .show, let display {
    // The queue's first toast is the one on screen; stacked toasts are on screen too.
    let lists = settings.mode == .cancelScheduled ? [display.atoms.scheduled] : [display.atoms.queue, display.atoms.stack]
    for list in lists {
        _ = display.send(.dismiss, in: list) { tickets in
            if let tag = settings.tag { return tickets.filter { $0.1.tag == tag } }
            // --dismiss: the first of each, the oldest toast on screen there.
            return settings.mode == .dismiss ? Array(tickets.prefix(1)) : tickets
        }
    }
    exit(ExitStatus.success)
}

// 5. A toast.
var content = ToastContent(
    message: message, title: settings.title, icon: settings.icon, progress: settings.progress, markup: settings.markup,
    spinner: settings.spinner || runCommand != nil, buttons: settings.buttons)
content.iconTheme = iconTheme

if let path = settings.renderPNG {
    let metrics = ToastMetrics(style: settings.style, scale: settings.scale ?? 1, monitor: Style.headlessMonitor)
    do {
        let painter = try ToastPainter(content: content, style: settings.style, metrics: metrics)
        if painter.markupFailed { warn(ToastPainter.markupWarning) }
        try painter.image().writePNG(to: path)
    } catch {
        die(error.description, status: ExitStatus.failure)
    }
    exit(ExitStatus.success)
}

let outcome: Outcome
var commandStatus: Int32?
do {
    let wakeups = try Wakeups()
    var toast = ToastRequest(
        content: content, style: settings.style, duration: runCommand == nil ? settings.duration : .sticky,
        monitor: settings.monitor, scale: settings.scale, displayName: settings.display, tag: settings.tag, delivery: delivery,
        stack: settings.stack)
    toast.rescheduleAfterZoneChange = reschedule
    toast.followStandardInput = settings.followStandardInput
    toast.clickThrough = settings.clickThrough
    if let origin = builder.origins["monitor"], origin.source != .commandLine { toast.monitorOrigin = origin.source.description }
    toast.followsReducedMotion = !parsed.options.contains { $0.definition.name == "animation" }
    if let runCommand {
        // Started once signals are blocked here, so that its end cannot be missed; it gets the
        // default signal handling back.
        let pid = Runner.spawn(runCommand)
        toast.command = RunningCommand(
            pid: pid, commandLine: runCommand.joined(separator: " "), grace: settings.style.runGrace,
            resultHold: settings.style.runResultHold)
    }
    // The session (and with it the window) is gone before the exit below.
    let session = try ToastSession(toast, display: display!, wakeups: wakeups, warn: warn)
    outcome = try session.run(queued: Detach.isChild ? { Detach.queued() } : nil)
    commandStatus = session.commandStatus
} catch {
    die(error.description, status: ExitStatus.failure)
}
if settings.printOutcome { Output.write(outcome.word(action: settings.action) + "\n") }
if let notifySend = NotifySendMode.invocation {
    // notify-send prints the action chosen (its buttons are ours), and its status does not
    // depend on it.
    if case .button(let index) = outcome, notifySend.actions.indices.contains(index) {
        Output.write(notifySend.actions[index].name + "\n")
    }
    exit(ExitStatus.success)
}
// A button's label is the answer, on standard output.
if case .button(let index) = outcome, settings.buttons.indices.contains(index) { Output.write(settings.buttons[index] + "\n") }
// With --run, the command's status is ours.
exit(commandStatus ?? outcome.exitStatus(action: settings.action))
