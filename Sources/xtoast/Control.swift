import Glibc
import XToastCore
import XToastService
import XToastSystem
import XToastX11

/// The control surface for keybindings and status bars (`--press`): commands that act on the
/// toasts of the display, through the queue's tickets, without grabbing a key.
enum Control {
    /// `--press [LABEL]`: clicks the toast on screen, or its button LABEL (the words after the
    /// option, joined as a message's are). Status 1 when no toast on screen has it.
    static func press(_ words: [String], display: XDisplay) throws(CommandError) -> Int32 {
        let label = words.isEmpty ? nil : MessageText.join(words)
        let queue = display.liveTickets(in: display.readQueue()).map { (UInt($0.0), $0.1) }
        let stack = display.liveTickets(in: display.readList(display.atoms.stack)).map { (UInt($0.0), $0.1) }
        guard let target = Press.target(label: label, queue: queue, stack: stack) else {
            throw .failure(label.map { "no toast on screen has a button \"\($0)\"" } ?? "no toast on screen")
        }
        display.press(target)
        return ExitStatus.success
    }
}

extension Control {
    /// `--list`: the pause, who holds notifications, and the toasts, as lines or JSON Lines.
    static func list(_ display: XDisplay, json: Bool) throws(CommandError) -> Int32 {
        let (toasts, pause, inhibited) = display.listing(now: Clock.wall())
        var lines =
            json
            ? Listing.json(toasts, pause: pause, inhibited: inhibited)
            : Listing.lines(toasts, pause: pause, inhibited: inhibited, time: localTime)
        // The applications' notifications kept after their toasts (the service's store).
        let store = KeptStore()
        let kept = store.all()
        lines += json ? KeptNotifications.json(kept) : KeptNotifications.lines(kept, time: localTime)
        try Output.write(lines.map { $0 + "\n" }.joined())
        // Printed on a terminal, they were read by someone (`--watch`'s unread count goes down);
        // into a pipe (a bar's script, a test) they were not, and nothing changes.
        if isatty(1) == 1, let id = KeptNotifications.readMarker(after: kept.map(\.id), marker: store.readUpTo()) {
            do throws(SystemFailure) { try store.markRead(upTo: id) } catch { warn("cannot mark the kept notifications read: \(error)") }
        }
        return ExitStatus.success
    }
}

/// An application's notification, on screen or kept after its toast: `--press`, `--dismiss`
/// and `--reshow` with `--notification ID`.
extension Control {
    /// Checks that `--notification` comes with a call it is for.
    static func check(notification: UInt32?, mode: Configuration.Mode, words: [String]) throws(OptionError) {
        guard notification != nil else { return }
        switch mode {
        case .press: break
        case .dismiss, .reshow:
            if !words.isEmpty { throw OptionError("--notification names the notification: --dismiss and --reshow take no words with it") }
        default: throw OptionError("--notification goes with --press, --dismiss or --reshow")
        }
    }

    /// Sends the call to the notification service (the bus starts it if it has gone).
    static func notification(_ id: UInt32, mode: Configuration.Mode, words: [String]) throws(CommandError) -> Int32 {
        let call: Dispatcher.UserCall
        switch mode {
        case .press: call = .press(label: words.isEmpty ? nil : MessageText.join(words), clickTime: nil)
        case .reshow: call = .reshow
        default: call = .dismiss
        }
        do throws(CenterCall.Failure) { try CenterCall.send(call, id: id) } catch { throw .failure(error.message) }
        return ExitStatus.success
    }
}

/// The history: recording a toast that ended, `--history` and `--reshow`.
extension Control {
    /// Checks the words after `--press`, `--history` and `--reshow` (nothing else reads them).
    static func check(_ mode: Configuration.Mode, words: [String]) throws(OptionError) {
        switch mode {
        case .history where !words.isEmpty: throw OptionError("--history takes no words")
        case .list where !words.isEmpty: throw OptionError("--list takes no words")
        case .watch where !words.isEmpty: throw OptionError("--watch takes no words")
        case .center where !words.isEmpty: throw OptionError("--center takes no words")
        case .reshow: _ = try reshowIndex(words)
        default: break
        }
    }

    /// `--reshow`'s N (from 1, the newest), from the words after it.
    static func reshowIndex(_ words: [String]) throws(OptionError) -> Int {
        guard let word = words.first else { return 1 }
        guard words.count == 1, word.allSatisfy(\.isASCII), let index = Int(word), (1...HistoryStore.countLimit).contains(index) else {
            throw OptionError("--reshow takes one number from 1 (the newest) to \(HistoryStore.countLimit)")
        }
        return index
    }

    /// `xtoast --center`, from this same binary, on our display, on its own: the summary after
    /// quiet was clicked. A failure is one warning.
    static func openCenter(display: String?) {
        do throws(Errno) {
            try ChildProcess.spawnDetached(arguments: ["/proc/self/exe", "--center"] + (display.map { ["--display", $0] } ?? []))
        } catch {
            warn("cannot open the centre: \(error)")
        }
    }

    /// Adds the toast that just ended to the history, if it is one to keep; `notification`: an
    /// application's, shown by the notification service's toast process. One summarised after
    /// quiet is kept as it was asked for, unseen (the summary it may have shown is not kept).
    static func record(_ session: ToastSession, outcome: Outcome, settings: Configuration, notification: Bool) {
        var (content, shown) = (session.content, session.shownAt != nil)
        if case .summarised = outcome { (content, shown) = (session.plannedContent, false) }
        guard HistoryEntry.isKept(outcome, shown: shown) else { return }
        let time = Int((shown ? session.shownAt : nil) ?? Clock.wall())
        var entry = HistoryEntry(content: content, settings: settings, outcome: outcome, shown: shown, time: time)
        entry.notification = notification
        HistoryFile.record(entry)
    }

    /// `--history`: newest first, one line each, or JSON Lines.
    static func history(json: Bool) throws(CommandError) -> Int32 {
        let entries = HistoryStore.newestFirst(try HistoryFile.read())
        try Output.write(entries.map { (json ? $0.json : $0.line(when: localTime($0.time))) + "\n" }.joined())
        return ExitStatus.success
    }

    /// `--reshow [N]`: the Nth newest entry shown again, with this call's other options (which
    /// win over the entry's: `--reshow --duration 10`).
    static func reshow(_ parsed: CommandLineParser.Parsed) throws(CommandError) -> Int32 {
        let index: Int
        do throws(OptionError) { index = try reshowIndex(parsed.words) } catch { throw .usage(error.message) }
        let entries = HistoryStore.newestFirst(try HistoryFile.read())
        guard entries.indices.contains(index - 1) else {
            throw .failure(entries.isEmpty ? "the history is empty" : "the history has \(entries.count) toasts, not \(index)")
        }
        var options: [String] = []
        for (definition, value) in parsed.options where definition.name != "reshow" {
            if definition.isFlag {
                options.append(definition.scope == .look ? "--\(definition.name)=\(value)" : "--\(definition.name)")
            } else {
                options += ["--\(definition.name)", value]
            }
        }
        let entry = entries[index - 1]
        var arguments = entry.arguments
        arguments.insert(contentsOf: options, at: arguments.count - 2)
        var command = try XToastCommand(arguments: arguments)
        command.iconFromHistory = entry.icon != nil && !parsed.options.contains { $0.definition.name == "icon" }
        return try command.run()
    }

    /// `2026-11-25 16:53` in the local time zone.
    static func localTime(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return String(seconds) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }
}

/// `--inhibit -- COMMAND`: applications' notifications held while the command runs.
extension Control {
    /// Holds an inhibition, runs `command` to its end, lets go; the command's status (as a shell
    /// gives it). If this process is killed, the bus ends the inhibition with its connection.
    static func inhibit(_ command: [String]) throws(CommandError) -> Int32 {
        let inhibition: Inhibition
        do throws(CenterCall.Failure) {
            // Named after its command (`obs`, not `/usr/bin/obs`): that is who holds them.
            let name = command.first.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "xtoast"
            inhibition = try Inhibition(name: name, reason: TerminalText.line(command.joined(separator: " ")))
        } catch {
            throw .failure(error.message)
        }
        // The inhibition lasts until the command ends, whatever ends it; its status is ours.
        let status = try Runner.runForwardingSignals(command)
        inhibition.end()
        return status
    }
}
