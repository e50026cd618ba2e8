import Foundation
import Testing

/// The answer timeout bounds the server's silence, and nothing else: time xtoast spends
/// working, or waiting for a CPU, is not the server's (see watchdog.h).
extension OnScreen.Faults {
    /// Seconds of local work while the server waits for nothing: sixteen user themes, each
    /// with an index.theme of a megabyte listing 30000 folders, looked through for a named
    /// icon found in the deepest one looked in (the ninth). The toast shows, late, and ends normally; before, it was
    /// lost with "stopped answering".
    @Test func localWorkLongerThanTheTimeoutIsNotSilence() throws {
        let server = try PrivateXServer()
        let home = temporaryPath(".data")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let names = ["Adwaita"] + (1..<16).map { "T\($0)" }
        let folders = (0..<30000).map { "d\($0)" }
        for (index, name) in names.enumerated() {
            let parent = index + 1 < names.count ? names[index + 1] : "hicolor"
            let text =
                "[Icon Theme]\nInherits=\(parent)\nDirectories=\(folders.joined(separator: ","))\n"
                + folders.map { "[\($0)]\nSize=48\n" }.joined()
            try FileManager.default.createDirectory(atPath: "\(home)/icons/\(name)", withIntermediateDirectories: true)
            try Data(text.utf8.prefix(1_040_000)).write(to: URL(fileURLWithPath: "\(home)/icons/\(name)/index.theme"))
        }
        try FileManager.default.createDirectory(atPath: "\(home)/icons/T8/d0", withIntermediateDirectories: true)
        let icon = "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'><rect width='16' height='16' fill='red'/></svg>"
        try Data(icon.utf8).write(to: URL(fileURLWithPath: "\(home)/icons/T8/d0/xtoast-far-icon.svg"))
        let result = try XToastProcess.run(
            ["--fade-in", "0", "--duration", "0.2", "--fade-out", "0", "--icon", "xtoast-far-icon", "Far"], display: server.name,
            environment: ["XDG_DATA_HOME": home, "XDG_DATA_DIRS": home + "/none"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
