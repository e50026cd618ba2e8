import Glibc
import XToastCore
import XToastRender
import XToastService
import XToastSystem
import XToastX11

/// Why the command stops before its end: the one line to print and the exit status.
struct CommandError: Error, Equatable {
    var message: String
    var status: Int32

    static func usage(_ message: String) -> CommandError {
        CommandError(message: message + " (see xtoast --help)", status: ExitStatus.usage)
    }

    static func failure(_ message: String) -> CommandError { CommandError(message: message, status: ExitStatus.failure) }
}

/// The command: `init` reads and checks the command line alone (no display, no file, no
/// input), so that a typo is a usage error anywhere and tests can call it in-process; `run`
/// reads the other sources, shows the toast or sends the command, and returns the exit status.
struct XToastCommand {
    /// Whom the command answers to (main decides, once).
    let caller: Caller
    let parsed: CommandLineParser.Parsed
    /// What the command line alone says (the other sources come in `run`).
    let request: Configuration
    let delivery: Delivery
    let reschedule: (@Sendable () -> Double?)?
    /// The command of `--run`, nil without it.
    let runCommand: [String]?
    /// `--pause`'s length in seconds (the words after it); nil: until `--resume`.
    let pauseLength: Double?
    /// Set by `--reshow`: the icon is the history's, not this call's, and a picture may be gone
    /// since (a notification's, deleted with its toast); one that cannot be read is left out.
    var iconFromHistory = false
    /// The display a notification's toast process opened while it waited for work: the
    /// command's, unless its command line names another.
    var waitingDisplay: XDisplay?

    init(arguments: [String], caller: Caller = .commandLine) throws(CommandError) {
        self.caller = caller
        var commandLineOnly = ConfigurationBuilder()
        do throws(OptionError) {
            parsed = try CommandLineParser.parse(arguments)
            try commandLineOnly.apply(commandLine: parsed.options)
            request = commandLineOnly.configuration
            switch request.mode {
            case .notificationService:
                (delivery, reschedule, runCommand, pauseLength) = (.now, nil, nil, nil)
                if !parsed.words.isEmpty { throw OptionError("--notification-service takes no words") }
            case .help, .version, .generateManual, .generateMarkdown, .generateCompletion:
                // Asked for help, the rest of the line is not judged.
                (delivery, reschedule, runCommand, pauseLength) = (.now, nil, nil, nil)
            case .pause, .resume:
                (delivery, reschedule, runCommand) = (.now, nil, nil)
                if request.delay != nil || request.at != nil {
                    throw OptionError("--pause takes its length as the word after it (xtoast --pause 1h), not --in or --at")
                }
                if request.mode == .resume && !parsed.words.isEmpty { throw OptionError("--resume takes no words") }
                pauseLength = try Pause.length(words: parsed.words)
            case .press, .history, .reshow, .list, .watch, .center:
                (delivery, reschedule, runCommand, pauseLength) = (.now, nil, nil, nil)
                try Control.check(request.mode, words: parsed.words)
            case .inhibit:
                (delivery, reschedule, pauseLength) = (.now, nil, nil)
                guard let words = parsed.afterDoubleDash, !words.isEmpty, parsed.words == words else {
                    throw OptionError("--inhibit needs a command after --, and nothing else")
                }
                runCommand = words
            case .show, .dismiss, .dismissAll, .cancelScheduled, .printConfig:
                (delivery, reschedule) = try Scheduling.delivery(for: request)
                runCommand = try Invocation.check(request, parsed)
                pauseLength = nil
            }
            try Control.check(notification: request.notification, mode: request.mode, words: parsed.words)
        } catch {
            throw .usage(error.message)
        }
    }

    /// Runs what the command line asks for; the exit status.
    func run() throws(CommandError) -> Int32 {
        // Only a toast on screen has a loop that reads signals (and `--inhibit`, which passes
        // them on to its command); the rest end by them as usual.
        if (request.mode != .show && request.mode != .inhibit) || request.renderPNG != nil { Wakeups.unblockHandledSignals() }
        if let text = documentation {
            try Output.write(text)
            return ExitStatus.success
        }
        if request.mode == .notificationService { return try NotificationServiceMode.run(request, options: parsed.options) }
        // Held by the notification service: no display is needed here.
        if request.mode == .inhibit, let runCommand { return try Control.inhibit(runCommand) }
        // An application's notification is the service's: no display is needed to act on it.
        if let id = request.notification { return try Control.notification(id, mode: request.mode, words: parsed.words) }
        // The history is the user's file: no display is needed to read it.
        if request.mode == .history { return try Control.history(json: request.json) }
        if request.mode == .reshow { return try Control.reshow(parsed) }
        // Not when detaching: Pango loads them on a thread, and the fork must come while there is one.
        if request.mode == .show && !request.detach { startLoadingFonts() }
        // `--print-config`'s words are the text its rules are tried on.
        let message = request.mode == .show ? try self.message() : parsed.words.joined(separator: " ")
        // Who waits for the word that the toast is queued: the service that started this process,
        // or the caller `--detach` leaves.
        var queued: (() -> Void)? = caller.isNotificationService ? { NotificationChildMode.queued() } : nil
        if request.mode == .show && request.detach && request.renderPNG == nil {
            // Before connecting, so that the caller never waits on the server: it waits (bounded)
            // for the child's word that the toast is queued, or for its error.
            switch Detach.start() {
            case .caller(let status): return status
            case .toast: queued = { Detach.queued() }
            case .foreground: break
            }
        }
        let sources = try readSources(message: message)
        let settings = sources.settings
        if settings.mode == .printConfig {
            try Output.write(configurationReport(sources))
            return ExitStatus.success
        }
        if settings.mode == .press, let display = sources.display { return try Control.press(parsed.words, display: display) }
        if settings.mode == .list, let display = sources.display { return try Control.list(display, json: settings.json) }
        if settings.mode == .watch, let display = sources.display { return try Control.watch(display) }
        if settings.mode == .center, let display = sources.display {
            return try CenterMode.run(settings, display: display, iconTheme: sources.iconTheme)
        }
        if settings.mode != .show, let display = sources.display {
            command(settings, display: display)
            // And the applications' notifications the service holds back, if it runs.
            if settings.mode == .dismissAll { CenterCall.dismissAll() }
            return ExitStatus.success
        }

        // A toast.
        var content = ToastContent(
            message: message, title: settings.title, icon: settings.icon, progress: settings.progress, markup: settings.markup,
            spinner: settings.spinner || runCommand != nil, buttons: settings.buttonRow.labels)
        content.reply = settings.buttonRow.reply
        content.iconTheme = sources.iconTheme
        if let path = settings.renderPNG {
            try render(content, style: settings.style, scale: settings.scale, to: path)
            return ExitStatus.success
        }
        if !sources.verdict.matched.isEmpty {
            ScriptRules.run(sources.verdict.commands, for: content, settings: settings, warn: warn)
            if let outcome = try ScriptRules.unshown(content, verdict: sources.verdict, settings: settings, queued: queued) {
                // A command is never dropped with its toast: it runs, and its status is ours.
                return try runCommand.map { command throws(CommandError) in try Runner.runForwardingSignals(command) } ?? outcome
            }
        }
        return try show(content, settings: settings, origins: sources.builder.origins, display: sources.display!, queued: queued)
    }

    /// What `--help`, `--version` and the generators print; nil when something else is asked.
    private var documentation: String? {
        switch request.mode {
        case .help: Documentation.help
        case .version: Documentation.version + "\n"
        case .generateManual: Documentation.manual
        case .generateMarkdown: Documentation.markdown
        case .generateCompletion(let shell): Documentation.completion(for: shell)
        case .show, .dismiss, .dismissAll, .cancelScheduled, .printConfig, .pause, .resume, .notificationService, .press, .history, .reshow,
            .list, .watch, .center, .inhibit:
            nil
        }
    }

    /// What the sources besides the command line say, and all of them merged.
    private struct Sources {
        /// The server; nil for `--render-png`, or when it did not open for `--print-config`.
        var display: XDisplay?
        var displayError: X11Error?
        var builder: ConfigurationBuilder
        var configFile: (file: ConfigFile, path: String)?
        var settings: Configuration
        /// What the config file's rules do to this toast (a script's, shown).
        var verdict: RuleVerdict
        /// The user's icon theme, when a desktop publishes it (only needed for icon names).
        var iconTheme: String?
    }

    /// What the config file's rules do to the toast this call shows (or `--print-config`
    /// reports on): nothing for anything else, for a notification's toast (the service applied
    /// them), or without a rule.
    private func scriptVerdict(_ configFile: (file: ConfigFile, path: String)?, message: String) -> RuleVerdict {
        // `--print-config` says what they did (to a toast with its words, from `--app`).
        guard request.mode == .show || request.mode == .printConfig, request.renderPNG == nil, !caller.isNotificationService,
            let configFile,
            configFile.file.sections.keys.contains(where: { $0.hasPrefix(NotificationRule.sectionPrefix) })
        else { return RuleVerdict() }
        let (rules, problems) = NotificationRule.rules(in: configFile.file)
        for problem in problems.prefix(ConfigurationBuilder.warningsPerSource) {
            warn("\(configFile.path):\(problem.line): \(problem.message)")
        }
        return ScriptToastRules.verdict(
            rules, app: request.app, category: request.category, title: request.title, message: message, preset: request.preset)
    }

    /// Opens the display (when one is needed) and reads the other sources: X resources (from
    /// the server) and the config file; settles the preset and the icon.
    private func readSources(message: String) throws(CommandError) -> Sources {
        let needsDisplay = request.renderPNG == nil
        // A notification's toast process opened it while it waited for work.
        var display = needsDisplay && request.display == nil ? waitingDisplay : nil
        var displayError: X11Error?
        if needsDisplay && display == nil {
            do {
                display = try XDisplay(name: request.display)
            } catch {
                displayError = error
            }
        }
        if let displayError, request.mode != .printConfig { throw .failure(displayError.description) }
        let resources = XResources.entries(in: display?.resourceString ?? "")
        let configFile = ConfigSource.load(request)

        // A script's toast meets the config file's rules (an application's met them in the
        // service); their preset under the command line's, their settings over the file's.
        let verdict = scriptVerdict(configFile, message: message)
        let preset = request.preset ?? verdict.preset
        var builder = ConfigurationBuilder()
        let builtIn = builder.apply(builtInPreset: preset ?? "toast")
        builder.apply(resources: resources, preset: preset)
        if let configFile { builder.apply(file: configFile.file, path: configFile.path, preset: preset) }
        builder.apply(rules: verdict)
        try! builder.apply(commandLine: parsed.options)  // checked in init
        for warning in builder.warnings { warn(warning) }
        var sources = Sources(
            display: display, displayError: displayError, builder: builder, configFile: configFile, settings: builder.configuration,
            verdict: verdict)

        if let preset = sources.settings.preset, !builtIn {
            let known = Set(resources.compactMap(\.preset)).union(configFile?.file.sections.keys.map { $0 } ?? [])
            if !known.contains(preset) {
                let names = (Style.presets.keys.sorted() + known.sorted()).joined(separator: ", ")
                throw .usage("unknown preset \"\(preset)\" (presets: \(names))")
            }
        }
        if case .named = sources.settings.icon, let bytes = display?.xsettings() { sources.iconTheme = XSettings.iconTheme(bytes) }
        try settleIcon(&sources)
        return sources
    }

    /// Checks the icon: asked for in this call, a bad icon is an error; from a file or the X
    /// resources (which any client can set) it must not silence every toast, and is dropped.
    /// So it is for notify-send, whose scripts name icons that are not installed everywhere,
    /// and for the history's, which was good when its toast showed.
    private func settleIcon(_ sources: inout Sources) throws(CommandError) {
        // A notification's toast checks its icon once its place in the queue is taken (the
        // painter leaves out what it cannot draw): a slow icon holds no other notification.
        guard let icon = sources.settings.icon, !caller.isNotificationService else { return }
        do {
            if let chatter = try ToastPainter.check(icon: icon, theme: sources.iconTheme) { warn("icon: \(chatter)") }
        } catch {
            // Past its bound, an icon is left out wherever it came from: the toast still shows.
            if error.overBudget {
                warn("\(error.description); showing the toast without it")
                sources.settings.icon = nil
                return
            }
            guard let origin = sources.builder.origins["icon"], origin.source != .commandLine || caller.isNotifySend || iconFromHistory
            else {
                throw .failure(error.description)
            }
            let source = iconFromHistory ? "history" : caller.isNotifySend ? "notify-send" : "\(origin.source)"
            warn("\(source): icon: \(error.description); showing the toast without it")
            sources.settings.icon = nil
        }
    }

    /// `--print-config`: the settings and where each came from, then what else was found.
    private func configurationReport(_ sources: Sources) -> String {
        var report = sources.builder.report + "\n"
        if let displayError = sources.displayError { report += "# X resources not read: \(displayError.description)\n" }
        if let pause = sources.display?.pause(now: Clock.wall()) {
            let now = Clock.wall()
            report += pause.end.map { "# toasts paused for \(Int(Double($0) - now)) s more\n" } ?? "# toasts paused until --resume\n"
        }
        report += sources.configFile.map { "# config file: \($0.path)\n" } ?? "# no config file read\n"
        // `--app NAME`, `--category NAME`: what the rules do to a notification from NAME (or a
        // script's toast) with this text.
        if request.app != nil || request.category != nil {
            let notification = ScriptToastRules.request(
                app: request.app, category: request.category, title: sources.settings.title, message: parsed.words.joined(separator: " "),
                preset: sources.settings.preset)
            let rules = sources.configFile.map { NotificationRule.rules(in: $0.file).rules } ?? []
            report += NotificationRule.explanation(of: rules, for: notification).map { $0 + "\n" }.joined()
        }
        return report
    }

    /// A command to the toasts on the display: pause or resume them, dismiss some, cancel the
    /// scheduled ones.
    private func command(_ settings: Configuration, display: XDisplay) {
        // Do not disturb: the state is the root's, for every toast on this display.
        if settings.mode == .pause || settings.mode == .resume {
            display.setPause(settings.mode == .pause ? Pause(length: pauseLength, from: Clock.wall()) : nil)
            return
        }
        guard let dismissal = Dismissal(settings.mode) else { return }
        for list in dismissal.lists {
            _ = display.send(.dismiss, in: display.atom(list)) { tickets in
                let targets = Set(dismissal.targets(in: tickets.map { (UInt($0.0), $0.1) }, tag: settings.tag))
                return tickets.filter { targets.contains(UInt($0.0)) }
            }
        }
    }

    /// `--render-png`: draws the toast into a PNG file instead of showing it.
    private func render(_ content: ToastContent, style: Style, scale: Double?, to path: String) throws(CommandError) {
        let metrics = ToastMetrics(style: style, scale: scale ?? 1, monitor: Style.headlessMonitor)
        do {
            let painter = try ToastPainter(content: content, style: style, metrics: metrics)
            if painter.markupFailed { warn(ToastPainter.markupWarning) }
            if let warning = painter.iconWarning { warn(warning) }
            try painter.image().writePNG(to: path)
        } catch {
            throw .failure(error.description)
        }
    }

    /// The message: the words, standard input, or `--run`'s command line.
    private func message() throws(CommandError) -> String {
        if let command = runCommand {
            // The message is the words before --, or the command line.
            let words = parsed.wordsBeforeDoubleDash
            return (try? MessageText.normalize(MessageText.join(words.isEmpty ? command : words))) ?? command.joined(separator: " ")
        }
        if request.followStandardInput && parsed.words.isEmpty {
            // The first line read is the first text shown.
            guard let line = Input.firstLine(), let text = try? MessageText.normalize(line) else {
                throw CommandError(message: "empty message: standard input ended before a line of text", status: ExitStatus.usage)
            }
            return text
        }
        let input = Input.message(arguments: parsed.words)
        guard let text = try? MessageText.normalize(input.text) else {
            throw CommandError(message: "empty message: give the text as arguments or on standard input", status: ExitStatus.usage)
        }
        if input.repaired { warn("the message is not valid UTF-8; invalid bytes are shown as \u{FFFD}") }
        return text
    }

    /// Shows the toast and waits for its end; the exit status. `queued`: tells whoever waits for
    /// the word that the toast is queued.
    private func show(
        _ content: ToastContent, settings: Configuration, origins: [String: (value: String, source: ConfigurationBuilder.Source)],
        display: XDisplay, queued: (() -> Void)?
    )
        throws(CommandError) -> Int32
    {
        let outcome: Outcome
        var commandStatus: Int32?
        var clickTime: UInt32?
        do {
            let wakeups = try Wakeups()
            var toast = ToastRequest(
                content: content, style: settings.style, duration: runCommand == nil ? settings.duration : .sticky,
                monitor: settings.monitor, scale: settings.scale, displayName: settings.display, tag: settings.tag, delivery: delivery,
                stack: settings.stack)
            toast.rescheduleAfterZoneChange = reschedule
            toast.followStandardInput = settings.followStandardInput
            toast.announce = settings.announce
            toast.clickThrough = settings.clickThrough
            toast.fullscreen = settings.fullscreenPolicy
            toast.idleThreshold = settings.style.idleThreshold
            toast.urgent = settings.goesThroughPause
            toast.sound = settings.sound
            toast.away = settings.awayName(keptByService: caller.isNotificationService).map { Ticket.Away($0, count: settings.burst) }
            if let origin = origins["monitor"], origin.source != .commandLine { toast.monitorOrigin = origin.source.description }
            toast.followsReducedMotion = !parsed.options.contains { $0.definition.name == "animation" }
            if let runCommand {
                // Started once signals are blocked here, so that its end cannot be missed; it gets
                // the default signal handling back.
                let pid = try Runner.spawn(runCommand)
                toast.command = RunningCommand(
                    pid: pid, commandLine: runCommand.joined(separator: " "), grace: settings.style.runGrace,
                    resultHold: settings.style.runResultHold)
            }
            // The session (and with it the window) is gone before the status is returned.
            let session = try ToastSession(toast, display: display, wakeups: wakeups, warn: warn)
            outcome = try session.run(queued: queued)
            commandStatus = session.commandStatus
            clickTime = session.clickTime
            if settings.inHistory {
                Control.record(session, outcome: outcome, settings: settings, notification: caller.isNotificationService)
            }
            // Once its own content is in the history, for the centre to list.
            if case .summarised(opensCenter: true) = outcome { Control.openCenter(display: settings.display) }
        } catch let error as CommandError {
            throw error
        } catch let error as X11Error {
            throw .failure(error.description)
        } catch let error as SystemFailure {
            throw .failure(error.description)
        } catch {
            throw .failure(String(describing: error))
        }
        if settings.printOutcome { try Output.write(outcome.word(action: settings.action) + "\n") }
        if case .notifySend(let notifySend) = caller {
            // notify-send prints the action chosen (its buttons are ours), and its status does
            // not depend on it.
            if case .button(let index) = outcome, notifySend.actions.indices.contains(index) {
                try Output.write(notifySend.actions[index].name + "\n")
            }
            return ExitStatus.success
        }
        // A button's label is the answer, on standard output.
        if case .button(let index) = outcome, settings.buttons.indices.contains(index) { try Output.write(settings.buttons[index] + "\n") }
        // And a reply is the text typed.
        if case .replied(let text) = outcome { try Output.write(text + "\n") }
        if caller.isNotificationService { try NotificationChildMode.report(clickTime: clickTime) }
        // With --run, the command's status is ours.
        return commandStatus ?? outcome.exitStatus(action: settings.action)
    }
}
