import Foundation
import Testing
import XToastCore

@testable import xtoast

/// The package's folder (this file is Tests/xtoastTests/DocumentationTests.swift).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `--help`, the man page, docs/options.md and the completions, all made from `OptionTable`:
/// no option is missing from any of them, and every word an option lists is offered.
@Suite("Documentation")
struct DocumentationTests {
    static let shown = Documentation.visibleOptions.map(\.name)
    static let withValues = Documentation.visibleOptions.filter { !$0.values.isEmpty }.map(\.name)

    /// Where each document lists an option: its entry, not a mention in passing.
    static func isListed(_ option: OptionDefinition) -> [String: Bool] {
        let name = option.name
        let bashOptions = line(in: Completion.script(for: .bash), "compgen -W \"--")?.split(separator: "\"")[1].split(separator: " ").map(
            String.init)
        let zsh = Completion.script(for: .zsh)
        let manEntry = String(option.synopsis.prefix { $0 != " " }).replacingAll("-", with: "\\-")
        return [
            "help": Documentation.help.contains("  \(option.synopsis)"),
            // Its end too: --burst is not --bursts.
            "man page": Documentation.manual.contains(".TP\n\\fB\(manEntry)\\fR"),
            "options.md": Documentation.markdown.contains("| `\(option.synopsis)` |"),
            "bash": bashOptions?.contains("--\(name)") == true,
            "zsh": zsh.contains("'--\(name)[") || zsh.contains("'--\(name)=") || zsh.contains(",--\(name)}")
                || zsh.contains(",--\(name)=}"),
            "fish": Completion.script(for: .fish).contains("complete -c xtoast -l \(name) "),
        ]
    }

    @Test("Every option --help shows is in the man page, docs/options.md and each completion script", arguments: shown)
    func everyOptionIsEverywhere(name: String) throws {
        let option = try #require(OptionTable.named(name))
        for (document, listed) in Self.isListed(option) { #expect(listed, "\(document) lacks --\(name)") }
    }

    @Test("Every rule key is in --help, the man page and docs/options.md, and the config file's rules read it")
    func everyRuleKeyIsEverywhere() {
        for key in RuleKey.all {
            #expect(Documentation.help.contains("  \(key.name) = <\(key.value)>"), "help lacks \(key.name)")
            #expect(
                Documentation.manual.contains(".TP\n\\fB\(key.name.replacingAll("-", with: "\\-"))\\fR = "), "man page lacks \(key.name)")
            #expect(Documentation.markdown.contains("| `\(key.name) = \(key.value)` |"), "options.md lacks \(key.name)")
            let value = key.values.last ?? (key.name == "run" ? "notify-me --now" : "some-thing")
            let read = NotificationRule.rules(in: ConfigFile(parsing: "[rule r]\n\(key.name) = \(value)\n"))
            #expect(read.problems.isEmpty, "\(key.name): \(read.problems)")
        }
        let unknown = NotificationRule.rules(in: ConfigFile(parsing: "[rule r]\nwhatever = 1\n"))
        #expect(unknown.problems.count == 1)
    }

    @Test("Hidden options are in none of them")
    func hiddenOptions() {
        for option in OptionTable.all where option.hidden {
            for (document, listed) in Self.isListed(option) { #expect(!listed, "\(document) lists --\(option.name)") }
        }
    }

    @Test("docs/options.md is what xtoast --generate-markdown prints (make docs writes it again)")
    func optionsPageIsCurrent() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/options.md"), encoding: .utf8)
        #expect(page == Documentation.markdown, "docs/options.md is stale: run make docs")
    }

    /// The line of a completion script that is about `name`.
    static func line(in script: String, _ marker: String) -> String? {
        script.split(separator: "\n").first { $0.contains(marker) }.map(String.init)
    }

    @Test("Each shell's script offers an option's words, in the table's order", arguments: withValues)
    func scriptsOfferTheWords(name: String) throws {
        let option = try #require(OptionTable.named(name))
        let words = option.values.joined(separator: " ")
        let bash = Self.line(in: Completion.script(for: .bash), "  --\(name)) ")
        #expect(bash?.contains("compgen -W \"\(words)\"") == true, "bash: \(bash ?? "no line")")
        let zsh = Self.line(in: Completion.script(for: .zsh), "--\(name)=")
        #expect(zsh?.contains("(\(words))") == true || zsh?.contains("compadd -- \(words)}") == true, "zsh: \(zsh ?? "no line")")
        let fish = Self.line(in: Completion.script(for: .fish), "-l \(name) ")
        #expect(fish?.contains("-a '\(words)'") == true, "fish: \(fish ?? "no line")")
    }

    @Test("bash, for real: the words after each option (flags: after '='), files where a path goes")
    func bashCompletes() throws {
        // In an empty folder, so that a file completion adds nothing to the words.
        let folder = NSTemporaryDirectory() + "xtoast-completion-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Completion.script(for: .bash).write(toFile: folder + ".bash", atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: folder + ".bash") }
        try "".write(toFile: folder + "/a-file", atomically: true, encoding: .utf8)

        var cases: [(words: [String], expected: [String])] = []
        for option in Documentation.visibleOptions {
            if option.isFlag {
                guard !option.values.isEmpty else { continue }
                cases.append((["--\(option.name)", "=", ""], option.values))
                cases.append((["--\(option.name)", "="], option.values))
            } else {
                let expected = option.values + (option.takesFile ? ["a-file"] : [])
                cases.append((["--\(option.name)", ""], expected))
                cases.append((["--\(option.name)", "=", ""], expected))
            }
        }
        cases.append((["--pos"], ["--position"]))
        cases.append((["--stack", ""], []))  // a message follows a flag

        var script = "cd '\(folder)' && source '\(folder).bash'\n"
        for (words, _) in cases {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            script += "COMP_WORDS=(xtoast \(quoted)); COMP_CWORD=\(words.count); COMPREPLY=(); _xtoast; echo \"${COMPREPLY[*]}\"\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "--noprofile", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let replies = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.split(separator: " ").map(String.init)
        }
        try #require(replies.count >= cases.count)
        for (index, (words, expected)) in cases.enumerated() {
            #expect(Set(replies[index]) == Set(expected), "xtoast \(words.joined(separator: " "))<TAB>")
        }
    }
}
