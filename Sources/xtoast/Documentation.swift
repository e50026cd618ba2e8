import XToastCore

/// `--help`, the man page and the shell completions, all made from `OptionTable`.
enum Documentation {
    static let version = "xtoast 0.3.0"
    static let summary = "show a short message (a toast) on an X11 screen, then take it away"

    static let examples: [(String, String)] = [
        ("xtoast \"Tagged\"", "the whole point: one line"),
        ("make && xtoast \"Built\" || xtoast --background '#b00020cc' \"Build failed\"", ""),
        ("xtoast --tag volume \"Volume 40%\"", "replaces the last volume toast"),
        ("xtoast --action \"Install the update?\" && sudo apt upgrade", "a click means yes"),
        ("xtoast -b --in 25m \"Tea is ready\"", "later, without waiting in the shell"),
        ("uptime | xtoast", "the text from standard input"),
        ("xtoast --render-png toast.png \"Hello\"", "no X server needed"),
        ("xtoast --press", "from a keybinding: click the toast on screen"),
        ("xtoast --history", "the toasts that showed, newest first"),
    ]

    static let exitStatuses: [(String, String)] = [
        ("0", "shown and ended: expired, clicked (a --button: its label is printed), replaced or dismissed"),
        (
            "1",
            "runtime error: no display, no answer within 5 s, lost connection, cannot write a file or the output; --press: no toast on screen (with that button)"
        ),
        ("2", "with --action: not clicked (expired, dismissed or replaced)"),
        ("64", "usage error: bad option, value or empty message"),
        ("69", "--notification-service: another notification daemon owns org.freedesktop.Notifications"),
        ("128+N", "ended by signal N (SIGTERM: 143, SIGINT: 130)"),
    ]

    /// The man page's BAD INPUT: the rules, each in a sentence (the manual has the details).
    static let badInput = [
        "Every input is bounded by the work it causes, not by its size, and costs at most one warning line.",
        "Text is cut at 4096 characters, standard input read up to 1 MiB, files read only if regular, PNGs refused past 4096x4096 pixels.",
        "An SVG icon (a path, a theme, notify-send, the notification service) is expanded within 1 MiB and drawn in a child limited to 256 MiB more memory, 2 s of CPU and 5 s in all; past a bound the toast shows without it.",
        "An icon theme's folders are names, never paths: ../ and absolute folders in an index.theme are skipped.",
        "Only the X server's silence (5 s) ends a toast with status 1, never xtoast's own work or a loaded machine: under load toasts are late, not lost.",
        "A stacked toast that does not fit on its monitor waits for room; nothing is placed off its monitor.",
        "As notify-send, every line libnotify 0.8 accepts is shown (an icon that cannot be used is one warning); the lines it refuses exit 1.",
        "Another client's queue entries cannot hold the queue: a forged ticket is waited for at most 5 s.",
    ]

    static var visibleOptions: [OptionDefinition] { OptionTable.all.filter { !$0.hidden } }

    // MARK: --help

    static var help: String {
        var text = """
            USAGE: xtoast [options] [--] [message ...]

            Show a short message (a toast) on an X11 screen, then take it away. Several
            words are joined with spaces; '-', or no message with a pipe, reads standard
            input. Toasts from several processes show one after another, in start order.

            OPTIONS:

            """
        for option in visibleOptions {
            var help = option.help
            if let value = option.defaultText { help += " (default: \(value))" }
            text += column(option.synopsis, help)
        }
        text += """

            The options from --duration to --tag may also be set in the config file,
            $XDG_CONFIG_HOME/xtoast/config (key = value lines, [preset] sections), and as
            X resources (xtoast.background: #000000cc). The command line wins over the
            file, the file over X resources.

            RULES ([rule NAME] sections of the config file; any setting, and):

            """
        for key in RuleKey.all { text += column("\(key.name) = <\(key.value)>", key.help) }
        text += "\n"
        text += "EXAMPLES:\n"
        for (command, note) in examples { text += "  \(command)\(note.isEmpty ? "" : "  # \(note)")\n" }
        text += "\nEXIT STATUS:\n"
        for (status, meaning) in exitStatuses { text += "  \(status.padding(to: 7))\(meaning)\n" }
        return text
    }

    /// An option and its help in two columns, the help wrapped at 80 characters.
    private static func column(_ left: String, _ right: String) -> String {
        let indent = 28
        var lines: [String] = []
        var line = "  " + left
        if line.count >= indent - 1 {
            lines.append(line)
            line = ""
        }
        line = line.padding(to: indent)
        for word in right.split(separator: " ") {
            if line.count + word.count + 1 > 80 && line.count > indent {
                lines.append(line)
                line = String(repeating: " ", count: indent)
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: man page

    static var manual: String {
        func roff(_ text: String) -> String {
            text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        }
        var page = ".TH XTOAST 1 \"2026\" \"\(version)\" \"User Commands\"\n"
        page += ".SH NAME\nxtoast \\- \(roff(summary))\n"
        page += ".SH SYNOPSIS\n.B xtoast\n[\\fIoptions\\fR] [\\fB\\-\\-\\fR] [\\fImessage\\fR ...]\n"
        page += ".SH DESCRIPTION\n"
        page += "Shows a small non-blocking message on an X11 screen and takes it away again. "
        page += "One process per call, no daemon: toasts from several processes on the same display show one after another, "
        page += "in the order the processes started, coordinated through the X server itself. "
        page +=
            "Several words are joined with spaces; \\fB\\-\\fR, or no message with a pipe on standard input, reads the text from standard input.\n"
        page += ".SH OPTIONS\n"
        for option in visibleOptions {
            let synopsis = option.synopsis.split(separator: " ").map { part in
                part.hasPrefix("<") ? "\\fI\(part.dropFirst().dropLast())\\fR" : "\\fB\(roff(String(part)))\\fR"
            }.joined(separator: " ")
            page += ".TP\n\(synopsis)\n\(roff(option.help))"
            if let value = option.defaultText { page += " Default: \(roff(value))." }
            page += "\n"
        }
        page += ".SH CONFIGURATION\n"
        page += "The settings listed before \\fB\\-\\-preset\\fR can also be given in "
        page += "\\fI$XDG_CONFIG_HOME/xtoast/config\\fR (default \\fI~/.config/xtoast/config\\fR) as "
        page += "\\fIkey\\fR = \\fIvalue\\fR lines with the long option names, with \\fB#\\fR comment lines and "
        page += "\\fB[\\fR\\fIname\\fR\\fB]\\fR sections that define presets used with \\fB\\-\\-preset\\fR \\fIname\\fR, "
        page += "and as X resources: \\fBxtoast.background: #000000cc\\fR, \\fBxtoast.\\fR\\fIname\\fR\\fB.position: top\\fR. "
        page += "The command line wins over the file, the file over X resources, and those over the compiled defaults. "
        page += "A bad entry is reported with its file and line and skipped.\n"
        page += ".SH RULES\n"
        page += "A \\fB[rule\\fR \\fIname\\fB]\\fR section of the config file applies to every notification and script's toast "
        page +=
            "its match keys all fit (without case); all rules that fit apply, in the file's order. Besides any setting above, it takes:\n"
        for key in RuleKey.all {
            page += ".TP\n\\fB\(roff(key.name))\\fR = \\fI\(key.value)\\fR\n\(key.kind == .match ? "Match: " : "")\(roff(key.help))\n"
        }
        page += ".SH EXIT STATUS\n"
        for (status, meaning) in exitStatuses { page += ".TP\n.B \(status)\n\(roff(meaning))\n" }
        page += ".SH BAD INPUT\n"
        for rule in badInput { page += ".IP \\(bu 2\n\(roff(rule))\n" }
        page += ".SH EXAMPLES\n"
        for (command, note) in examples {
            page += ".TP\n.B \(roff(command))\n\(note.isEmpty ? "" : roff(note) + "\n")"
        }
        page += ".SH SEE ALSO\n.BR xrdb (1),\n.BR picom (1)\n"
        return page
    }

    /// The completion script for `shell` (`Completion`).
    static func completion(for shell: Configuration.Shell) -> String { Completion.script(for: shell) }

    // MARK: docs/options.md

    /// The option reference in Markdown, as docs/options.md holds it (`make docs`).
    static var markdown: String {
        var text = """
            # xtoast options

            <!-- Made by `xtoast --generate-markdown` from the option table, as are `xtoast --help`, the
            man page and the shell completions: do not edit; `make docs` writes it again. -->

            `xtoast [options] [--] [message ...]`

            Show a short message (a toast) on an X11 screen, then take it away. Several words are
            joined with spaces; `-`, or no message with a pipe, reads standard input. A value follows
            its option as the next word or after `=` (`--offset -20,0`, `--offset=-20,0`); a message
            that starts with `-` goes after `--`. The [manual](manual.md) tells what each option does.

            ## Settings

            These may also be set in the config file, `$XDG_CONFIG_HOME/xtoast/config` (`key = value`
            lines, `[preset]` sections), and as X resources (`xtoast.background: #000000cc`). The
            command line wins over the file, the file over X resources. A setting that is a flag takes
            `true` or `false` after `=` (`--stack=false`) or in a file (`stack = false`).


            """
        let visible = visibleOptions
        text += markdownTable(visible.filter { $0.scope == .look })
        text += "\n## For one call\n\nOn the command line only.\n\n"
        text += markdownTable(visible.filter { $0.scope == .invocation })
        text +=
            "\n## The notification service\n\nIn the config file's general part, or on `xtoast --notification-service`'s command line.\n\n"
        text += markdownTable(visible.filter { $0.scope == .service })
        text += "\n## Rules\n\nA `[rule NAME]` section of the config file applies to every notification and script's toast "
        text += "its match keys all fit (without case); all rules that fit apply, in the file's order. Besides any setting, it takes:\n\n"
        text += "| key | kind | meaning | values |\n| --- | --- | --- | --- |\n"
        for key in RuleKey.all {
            let values = key.values.map { "`\($0)`" }.joined(separator: ", ")
            text +=
                "| `\(key.name) = \(key.value)` | \(key.kind == .match ? "match" : "action") | \(markdownCell(key.help)) | \(values) |\n"
        }
        text += "\n## Examples\n\n```sh\n"
        for (command, note) in examples { text += command + (note.isEmpty ? "" : "  # \(note)") + "\n" }
        text += "```\n\n## Exit status\n\n| status | meaning |\n| --- | --- |\n"
        for (status, meaning) in exitStatuses { text += "| \(status) | \(markdownCell(meaning)) |\n" }
        return text
    }

    private static func markdownTable(_ options: [OptionDefinition]) -> String {
        var table = "| option | meaning | values | default |\n| --- | --- | --- | --- |\n"
        for option in options {
            var values = option.values.map { "`\($0)`" }
            if option.takesFile { values.append("a file") }
            let defaultText = option.defaultText.map { "`\($0)`" } ?? ""
            table += "| `\(option.synopsis)` | \(markdownCell(option.help)) | \(values.joined(separator: ", ")) | \(defaultText) |\n"
        }
        return table
    }

    /// Text in a table cell: no HTML (`<b>` shows as typed), no column break.
    private static func markdownCell(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;").replacingAll("|", with: "\\|")
    }
}

extension String {
    /// Every `target` replaced; a `Character`, because splitting on a `String` needs the
    /// `_StringProcessing` module, which the binary leaves out (see Package.swift).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
