import Foundation

/// The tests' one poll, for what sends no event to wait on: another client's event mask, a
/// process's children, a file another process writes, the server's idle time. What xtoast
/// publishes on the server is waited for as X events instead (`XWatcher`).
///
/// Looks at `condition` every `interval` seconds (20 ms) until it gives a value; throws after
/// `timeout` seconds, generous so that a loaded machine is slow, never wrong.
func waitForValue<T>(_ what: String, timeout: Double = 10, interval: Double = 0.02, _ condition: () throws -> T?) throws -> T {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if let value = try condition() { return value }
        guard Date() < deadline else { throw TestFailure("\(what): not within \(timeout) s") }
        usleep(UInt32(interval * 1e6))
    }
}

/// `waitForValue` for a condition that holds or not.
func waitUntil(_ what: String, timeout: Double = 10, interval: Double = 0.02, _ condition: () throws -> Bool) throws {
    _ = try waitForValue(what, timeout: timeout, interval: interval) { try condition() ? true : nil }
}
