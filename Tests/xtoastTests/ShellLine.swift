/// The `xtoast` commands in a line of shell, split into words as a shell would for the simple
/// cases the docs use: '…', "…" (with \" \\ \$ \`), $'…' (\n \t \\ \'), backslashes, comments,
/// and the plumbing around a command (`&&`, `||`, `|`, `;`, `name=$(…)`) taken off.
struct ShellLine {
    /// Each command of the line (and of its `$(…)`s) as its words, the program's name first.
    private(set) var commands: [[String]] = []

    /// Why a line could not be split.
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    init(_ line: String) throws {
        var words: [String] = []
        var word: String?
        var characters = Array(line)[...]

        func endWord() {
            if let finished = word { words.append(finished) }
            word = nil
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(words) }
            words = []
        }

        while let c = characters.popFirst() {
            switch c {
            case " ", "\t":
                endWord()
            case "#" where word == nil:
                characters = []
            case "&", "|", ";":
                // &&, ||, |, ; all end a command; a lone & would too.
                if characters.first == c { characters.removeFirst() }
                endCommand()
            case "'":
                guard let end = characters.firstIndex(of: "'") else { throw Unsupported(description: "unterminated ' in \(line)") }
                word = (word ?? "") + String(characters[..<end])
                characters = characters[(end + 1)...]
            case "\"":
                word = (word ?? "") + (try Self.doubleQuoted(&characters, line: line))
            case "\\":
                guard let next = characters.popFirst() else { throw Unsupported(description: "a trailing \\ in \(line)") }
                word = (word ?? "") + String(next)
            case "$" where characters.first == "'":
                characters.removeFirst()
                word = (word ?? "") + (try Self.ansiQuoted(&characters, line: line))
            case "$" where characters.first == "(":
                // A command substitution: its commands are checked too; here it is one word.
                characters.removeFirst()
                var depth = 1
                var inner = ""
                while let d = characters.popFirst() {
                    if d == "(" { depth += 1 }
                    if d == ")" { depth -= 1 }
                    if depth == 0 { break }
                    inner.append(d)
                }
                guard depth == 0 else { throw Unsupported(description: "unterminated $( in \(line)") }
                commands += try ShellLine(inner).commands
                word = (word ?? "") + "$(\(inner))"
            default:
                word = (word ?? "") + String(c)
            }
        }
        endCommand()
    }

    /// The `xtoast` commands, without the program's name.
    var xtoastArguments: [[String]] { commands.filter { $0.first == "xtoast" }.map { Array($0.dropFirst()) } }

    private static func doubleQuoted(_ characters: inout ArraySlice<Character>, line: String) throws -> String {
        var text = ""
        while let c = characters.popFirst() {
            switch c {
            case "\"":
                return text
            case "\\":
                guard let next = characters.popFirst() else { break }
                text += "\"\\$`".contains(next) ? String(next) : "\\\(next)"
            default:
                text.append(c)
            }
        }
        throw Unsupported(description: "unterminated \" in \(line)")
    }

    private static func ansiQuoted(_ characters: inout ArraySlice<Character>, line: String) throws -> String {
        var text = ""
        while let c = characters.popFirst() {
            switch c {
            case "'":
                return text
            case "\\":
                guard let next = characters.popFirst() else { break }
                switch next {
                case "n": text += "\n"
                case "t": text += "\t"
                case "\\", "'", "\"": text.append(next)
                default: throw Unsupported(description: "$'…' escape \\\(next) in \(line)")
                }
            default:
                text.append(c)
            }
        }
        throw Unsupported(description: "unterminated $' in \(line)")
    }
}
