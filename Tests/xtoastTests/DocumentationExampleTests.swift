import Foundation
import Testing
import XToastCore

@testable import xtoast

/// Every `xtoast` command the docs show runs as written: the ones in the `sh` blocks of the
/// README and docs/*.md, and `--help`'s examples. Each parses without a usage error; one that
/// shows a message is drawn through `--render-png`, one at a time (one process draws one toast).
@Suite("Documentation examples", .serialized)
struct DocumentationExampleTests {
    /// An `xtoast` command found in the docs: where, the line, its arguments.
    struct Example: CustomTestStringConvertible, Sendable {
        var source: String
        var line: String
        var arguments: [String]
        var testDescription: String { "\(source): xtoast \(arguments.joined(separator: " "))" }
    }

    /// Commands that are checked by the parser but not drawn, and why. Each must still be in
    /// the docs (a test says when one has gone).
    static let notDrawn: [String: String] = [
        "uptime | xtoast": "the text comes from standard input, which the test has not got"
    ]

    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    /// The lines of the `sh` blocks of a Markdown file, a line continued with `\` joined.
    static func shellLines(in markdown: String) -> [String] {
        var lines: [String] = []
        var inShell = false
        var pending = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = !inShell && line.dropFirst(3).trimmingCharacters(in: .whitespaces) == "sh"
                continue
            }
            guard inShell else { continue }
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
            } else {
                lines.append(pending + line)
                pending = ""
            }
        }
        return lines
    }

    static let examples: [Example] = {
        var examples: [Example] = []
        func add(_ line: String, from source: String) {
            guard let commands = try? ShellLine(line).xtoastArguments else {
                examples.append(Example(source: source, line: line, arguments: ["<cannot split this line>"]))
                return
            }
            for arguments in commands { examples.append(Example(source: source, line: line, arguments: arguments)) }
        }
        for document in documents {
            let text = (try? String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)) ?? ""
            for line in shellLines(in: text) { add(line, from: document) }
        }
        for (command, _) in Documentation.examples { add(command, from: "xtoast --help") }
        return examples
    }()

    @Test("The README and the manual show xtoast commands, and the extraction finds them")
    func examplesAreFound() {
        #expect(Self.documents.contains("docs/manual.md"))
        for source in ["README.md", "docs/manual.md", "xtoast --help"] {
            #expect(Self.examples.filter { $0.source == source }.count >= 5, "\(source)")
        }
    }

    @Test("Every listed exception is still in the docs")
    func exceptionsAreCurrent() {
        for line in Self.notDrawn.keys { #expect(Self.examples.contains { $0.line.hasPrefix(line) }, "\(line)") }
    }

    @Test("Each example parses without a usage error, and one with a message draws", arguments: examples)
    func runsAsWritten(example: Example) throws {
        let command: XToastCommand
        do {
            command = try XToastCommand(arguments: example.arguments)
        } catch {
            Issue.record("\(example.line): \(error.message)")
            return
        }
        // A preset the docs use must be built in: a reader has not got our config file.
        if let preset = command.request.preset { #expect(Style.presets[preset] != nil, "\(example.line): preset \(preset)") }
        let words = command.parsed.wordsBeforeDoubleDash
        let message = command.runCommand != nil || !(words.isEmpty || words == ["-"])
        guard command.request.mode == .show, message else {
            #expect(command.request.mode != .show || Self.notDrawn.keys.contains { example.line.hasPrefix($0) }, "\(example.line)")
            return
        }
        // Drawn: into a file of our own instead of the one named, without the user's settings.
        let path = NSTemporaryDirectory() + "xtoast-example-\(getpid())-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var arguments = example.arguments
        if let index = arguments.firstIndex(of: "--render-png"), index + 1 < arguments.count {
            arguments.removeSubrange(index...(index + 1))
        }
        let status = try XToastCommand(arguments: ["--render-png", path, "--no-config"] + arguments).run()
        #expect(status == 0, "\(example.line)")
        #expect(FileManager.default.fileExists(atPath: path), "\(example.line)")
    }
}
