import Glibc
import XToastCore
import XToastRender
import XToastSystem

/// Where the message comes from: the arguments, or standard input.
enum Input {
    /// Standard input beyond this is not read: only the first few thousand characters can show.
    static let stdinByteLimit = 1 << 20

    /// The raw message text, and whether invalid UTF-8 had to be repaired.
    static func message(arguments: [String]) -> (text: String, repaired: Bool) {
        if arguments == ["-"] || (arguments.isEmpty && isatty(0) == 0) {
            return MessageText.decode(readStandardInput())
        }
        // CommandLine.arguments has already replaced invalid UTF-8 silently; look at the bytes.
        let repaired = (1..<Int(CommandLine.argc)).contains { i in
            guard let arg = CommandLine.unsafeArgv[i] else { return false }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(arg).assumingMemoryBound(to: UInt8.self), count: strlen(arg))
            return MessageText.decode(bytes).repaired
        }
        return (MessageText.join(arguments), repaired)
    }

    /// The first line of standard input (blocking), nil at once-empty end of file.
    static func firstLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < stdinByteLimit {
            guard case .success(1) = retryingOnInterrupt({ read(0, &byte, 1) }) else { break }
            if byte == 10 {
                if bytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
                    bytes.removeAll()
                    continue
                }
                break
            }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : MessageText.decode(bytes).text
    }

    private static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count < stdinByteLimit {
            guard case .success(let count) = retryingOnInterrupt({ read(0, &buffer, buffer.count) }), count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}
