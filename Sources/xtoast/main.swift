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

func usageError(_ message: String) -> Never {
    die(message + " (see xtoast --help)", status: ExitStatus.usage)
}

// 1. The command line alone: checked first, so that a typo is a usage error even where there
//    is no display, and so that --config, --preset and --display are known.
let parsed: CommandLineParser.Parsed
var commandLineOnly = ConfigurationBuilder()
do {
    parsed = try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()))
    try commandLineOnly.apply(commandLine: parsed.options)
} catch {
    usageError(error.message)
}
let request = commandLineOnly.configuration

switch request.mode {
case .help:
    print(Documentation.help, terminator: "")
    exit(ExitStatus.success)
case .version:
    print(Documentation.version)
    exit(ExitStatus.success)
case .generateManual:
    print(Documentation.manual, terminator: "")
    exit(ExitStatus.success)
case .generateCompletion(let shell):
    print(Documentation.completion(for: shell), terminator: "")
    exit(ExitStatus.success)
case .show, .dismiss, .dismissAll, .cancelScheduled, .printConfig:
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
if request.mode == .show {
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
builder.apply(resources: resources, preset: request.preset)
if let configFile { builder.apply(file: configFile.file, path: configFile.path, preset: request.preset) }
try! builder.apply(commandLine: parsed.options)  // already checked above
for warning in builder.warnings { warn(warning) }
let settings = builder.configuration

if let preset = settings.preset, preset != "toast" {
    let known = Set(resources.compactMap(\.preset)).union(configFile?.file.sections.keys.map { $0 } ?? [])
    if !known.contains(preset) {
        let names = (["toast"] + known.sorted()).joined(separator: ", ")
        usageError("unknown preset \"\(preset)\" (presets: \(names))")
    }
}

if settings.mode == .printConfig {
    print(builder.report)
    if let displayError { print("# X resources not read: \(displayError.description)") }
    if let configFile { print("# config file: \(configFile.path)") } else { print("# no config file read") }
    exit(ExitStatus.success)
}

// 4. Commands to other toasts.
if settings.mode != .show, let display {
    let list = settings.mode == .cancelScheduled ? display.atoms.scheduled : display.atoms.queue
    _ = display.send(.dismiss, in: list) { tickets in
        if let tag = settings.tag { return tickets.filter { $0.1.tag == tag } }
        return settings.mode == .dismiss ? Array(tickets.prefix(1)) : tickets
    }
    exit(ExitStatus.success)
}

// 5. A toast.
if let path = settings.renderPNG {
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
    var toast = ToastRequest(
        message: message, style: settings.style, duration: settings.duration, monitor: settings.monitor,
        scale: settings.scale, displayName: settings.display, tag: settings.tag, delivery: delivery, stack: settings.stack)
    toast.rescheduleAfterZoneChange = reschedule
    // The session (and with it the window) is gone before the exit below.
    outcome = try ToastSession(toast, display: display!, wakeups: wakeups, warn: warn).run(queued: {
        if settings.detach { Detach.now() }
    })
} catch {
    die(error.description, status: ExitStatus.failure)
}
if settings.printOutcome { print(outcome.word(action: settings.action)) }
exit(outcome.exitStatus(action: settings.action))
