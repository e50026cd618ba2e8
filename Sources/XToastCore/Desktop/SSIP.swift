/// Speech Dispatcher's protocol (SSIP): lines of text over a unix socket, each command answered
/// by a line with a three-digit code (2xx: done). Only what one spoken message needs.
public enum SSIP {
    /// One command of the conversation and the reply code that means it worked.
    public struct Step: Equatable, Sendable {
        public var bytes: [UInt8]
        public var expected: Int
    }

    /// The conversation that speaks `text` once: name the client, set the priority, `SPEAK`
    /// the text, `QUIT`.
    ///
    /// Priority `message` is the polite one: it waits for what is being said at `message` and
    /// `important` (Orca speaks everything at `message`), so it neither interrupts the screen
    /// reader nor is dropped, as `notification` would be while anything else is spoken.
    public static func conversation(speaking text: String, user: String?) -> [Step] {
        [
            Step(bytes: line("SET self CLIENT_NAME \(clientName(user: user))"), expected: 208),
            Step(bytes: line("SET self PRIORITY message"), expected: 202),
            Step(bytes: line("SPEAK"), expected: 230),
            Step(bytes: data(text), expected: 225),
            Step(bytes: line("QUIT"), expected: 231),
        ]
    }

    /// `user:xtoast:toast`, as libspeechd names clients; the user name kept to letters, digits,
    /// `_` and `-` (a space or colon would change the command).
    static func clientName(user: String?) -> String {
        let safe = (user ?? "").unicodeScalars.prefix(32).filter {
            $0.isASCII && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
        }
        return (safe.isEmpty ? "unknown" : String(String.UnicodeScalarView(safe))) + ":xtoast:toast"
    }

    static func line(_ command: String) -> [UInt8] { Array((command + "\r\n").utf8) }

    /// The text of a `SPEAK`: its lines ended by CR LF, a line that starts with a dot given a
    /// second one, then the line with a single dot that ends the message.
    public static func data(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        for line in lines {
            if line.first == "." { bytes.append(UInt8(ascii: ".")) }
            bytes += line.utf8
            bytes += [13, 10]
        }
        return bytes + Array(".\r\n".utf8)
    }

    /// A reply is at most a few lines of a few dozen bytes; a peer that sends more without a
    /// last line is not Speech Dispatcher.
    public static let replyLimit = 4096

    public enum ReplyError: Error, Equatable {
        case malformed
    }

    /// The code of the complete reply at the start of `buffer` (`225-17` lines go on, `225 OK
    /// MESSAGE QUEUED` ends it) and the bytes it took; nil while more is to come.
    public static func reply(in buffer: ArraySlice<UInt8>) throws(ReplyError) -> (code: Int, consumed: Int)? {
        var start = buffer.startIndex
        while let newline = buffer[start...].firstIndex(of: 10) {
            let line = buffer[start..<newline]
            guard line.count >= 4, let code = Int(String(decoding: line.prefix(3), as: UTF8.self)), (100...999).contains(code)
            else { throw .malformed }
            start = buffer.index(after: newline)
            switch line[line.startIndex + 3] {
            case UInt8(ascii: " "): return (code, start - buffer.startIndex)
            case UInt8(ascii: "-"): continue
            default: throw .malformed
            }
        }
        guard buffer.count <= replyLimit else { throw .malformed }
        return nil
    }

    /// Where Speech Dispatcher listens: `SPEECHD_ADDRESS` (`unix_socket:/path`; TCP is not
    /// used), else `speech-dispatcher/speechd.sock` in the runtime directory (libspeechd's
    /// default: `XDG_RUNTIME_DIR`, else the cache directory). Nil when there is no such place.
    public static func socketPath(environment: (String) -> String?) -> String? {
        if let address = environment("SPEECHD_ADDRESS"), !address.isEmpty {
            let parts = address.split(separator: ":", maxSplits: 1)
            guard parts.first == "unix_socket" else { return nil }
            if parts.count == 2, !parts[1].isEmpty { return String(parts[1]) }
        }
        let runtime =
            nonEmpty(environment("XDG_RUNTIME_DIR")) ?? nonEmpty(environment("XDG_CACHE_HOME"))
            ?? nonEmpty(environment("HOME")).map { $0 + "/.cache" }
        return runtime.map { $0 + "/speech-dispatcher/speechd.sock" }
    }

    private static func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
}
