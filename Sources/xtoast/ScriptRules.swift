import XToastCore
import XToastSystem

/// What the config file's rules do to a script's toast besides its look (issue #30): the
/// commands they run, and whether it shows at all (`popup = false`: in the history and the
/// centre only; `drop = true`: nothing). The verdict is Core's (`ScriptToastRules`); this
/// carries it out.
enum ScriptRules {
    /// Starts the matching rules' commands on their own, told the toast's fields in their
    /// environment (`RuleCommands.environment`; the id is 0: a script's toast has none), each
    /// killed after the service's bound on a rule's command, with its output going nowhere:
    /// the toast never waits for one. A command that cannot be found is one warning.
    static func run(_ commands: [[String]], for content: ToastContent, settings: Configuration, warn: (String) -> Void) {
        guard !commands.isEmpty else { return }
        let request = ScriptToastRules.request(
            app: settings.app, category: settings.category, title: content.title, message: content.message, preset: settings.preset)
        let told = RuleCommands.environment(id: 0, request: request, urgency: NotificationToast.urgency(request))
        let environment = Environment.all().filter { !$0.hasPrefix("XTOAST_") } + told
        let seconds = String(Int(Dispatcher.Limits().commandTime))
        for command in commands {
            let name = TerminalText.line(String(command[0].prefix(64)))
            guard ChildProcess.lookUp(command[0]) != nil else {
                warn("a rule's command \"\(name)\" is not run: not found")
                continue
            }
            do throws(Errno) {
                try ChildProcess.spawnDetached(arguments: ["timeout", "-s", "KILL", seconds] + command, environment: environment)
            } catch {
                warn("a rule's command \"\(name)\" is not run: \(error)")
            }
        }
    }

    /// A toast the rules keep from the screen: recorded as `quiet` (unless `drop`), its word
    /// printed with `--print-outcome`; the exit status. Nil: it shows. `queued`: tells whoever
    /// waits for the word that the toast is queued.
    static func unshown(
        _ content: ToastContent, verdict: RuleVerdict, settings: Configuration, queued: (() -> Void)?
    ) throws(CommandError) -> Int32? {
        let word: String
        switch verdict.arrival {
        case .shown: return nil
        case .dropped: word = Outcome.dropped.word(action: settings.action)
        case .quiet:
            word = HistoryEntry.quietEnding
            if settings.inHistory {
                var entry = HistoryEntry(content: content, settings: settings, outcome: .dropped, shown: false, time: Int(Clock.wall()))
                entry.ending = word
                HistoryFile.record(entry)
            }
        }
        // Whoever waits for the word that it is queued (`--detach`'s caller) is done with.
        queued?()
        if settings.printOutcome { try Output.write(word + "\n") }
        return Outcome.dropped.exitStatus(action: settings.action)
    }
}
