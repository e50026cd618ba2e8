import Glibc

/// The warnings printed so far, and how often each was repeated since.
enum Warnings {
    /// After this many different warnings, the rest are only counted.
    static let distinctLimit = 32

    /// The warnings this process's caller is not told (`Caller.unsaidWarnings`): set once, in
    /// main.
    nonisolated(unsafe) static var unsaid: Set<String> = []

    nonisolated(unsafe) private static var seen: [String: Int] = [:]
    nonisolated(unsafe) private static var suppressed = 0

    /// Whether `message` is new (and one of the first `distinctLimit`); counts it either way.
    static func shouldPrint(_ message: String) -> Bool {
        if seen.isEmpty { atexit { Warnings.printRepeats() } }
        if let count = seen[message] {
            seen[message] = count + 1
            return false
        }
        guard seen.count < distinctLimit else {
            suppressed += 1
            return false
        }
        seen[message] = 0
        return true
    }

    /// At exit, one line for all the repeats left unprinted.
    private static func printRepeats() {
        let repeats = seen.values.reduce(0, +) + suppressed
        guard repeats > 0 else { return }
        printError("xtoast: warning: \(repeats) more warning\(repeats == 1 ? "" : "s") like those above were not printed")
    }
}
