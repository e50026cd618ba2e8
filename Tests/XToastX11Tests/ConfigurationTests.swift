import CX11
import Foundation
import Testing

/// The four sources of settings, on a private server whose resources the test controls.
extension OnScreen {
    @Suite struct Configuration {
        func writeFile(_ text: String, _ suffix: String) throws -> String {
            let path = temporaryPath(suffix)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                throw TestFailure("cannot write \(path)")
            }
            return path
        }

        @Test func commandLineBeatsFileBeatsResourcesBeatsDefaults() throws {
            let server = try PrivateXServer()
            let resources = try writeFile(
                "xtoast.background: #111111\nxtoast.radius: 3\nxtoast.padding: 4\nxtoast.volume.position: top\nxtoast.volume.font: Serif 20\n",
                ".Xresources")
            let config = try writeFile("# mine\nradius = 6\npadding = 7\n\n[volume]\nposition = center\n", ".config")
            defer {
                try? FileManager.default.removeItem(atPath: resources)
                try? FileManager.default.removeItem(atPath: config)
            }
            try runTool("xrdb", ["-merge", resources], display: server.name)
            let result = try XToastProcess.run(
                ["--config", config, "--preset", "volume", "--padding", "9", "--print-config"], display: server.name)
            #expect(result.status == 0, "\(result.stderr)")
            func line(_ key: String) -> String {
                result.stdout.split(separator: "\n").first { $0.hasPrefix(key + " ") }.map(String.init) ?? ""
            }
            #expect(line("background").contains("= #111111") && line("background").contains("# X resource xtoast.*"))
            #expect(line("radius").contains("= 6") && line("radius").contains("# \(config):2"))
            #expect(line("padding").contains("= 9") && line("padding").contains("# command line"))
            #expect(line("position").contains("= center") && line("position").contains("# \(config):6"))
            #expect(line("font").contains("= Serif 20") && line("font").contains("# X resource xtoast.volume.*"))
            #expect(line("duration").contains("= auto") && line("duration").contains("# default"))

            // And the toast really uses them: the resources' background, the file's padding.
            let watcher = try XWatcher(display: server.name)
            let toast = try XToastProcess(["--config", config, "--duration", "sticky", "Configured"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            let frame = try #require(watcher.geometry(window))
            // No compositor: the first frame is on screen once xtoast says it is out.
            try watcher.waitForShown(pid: toast.child.pid)
            let shot = try Screenshot(display: server.name)
            let inside = shot.pixel(frame.x + 3, frame.y + frame.height / 2)
            #expect(inside.r == 0x11 && inside.g == 0x11 && inside.b == 0x11, "\(inside)")
            toast.signal(SIGUSR1)
            #expect(try toast.wait().status == 0)
        }

        @Test func aBadLineIsNamedAndTheToastStillShows() throws {
            let server = try PrivateXServer()
            let config = try writeFile("position = top\nradius = huge\nno equals sign here\ncolour = red\n", ".config")
            defer { try? FileManager.default.removeItem(atPath: config) }
            let watcher = try XWatcher(display: server.name)
            let toast = try XToastProcess(["--config", config, "--duration", "sticky", "Despite a typo"], display: server.name)
            let window = try #require(try watcher.waitForToasts().first)
            // The good line still counts: at the top.
            #expect(watcher.geometry(window)?.y == 15)
            toast.signal(SIGUSR1)
            let result = try toast.wait()
            #expect(result.status == 0)
            #expect(result.stderr.contains("xtoast: warning: \(config):2: radius: invalid radius \"huge\""))
            #expect(result.stderr.contains("xtoast: warning: \(config):3: expected key = value"))
            #expect(result.stderr.contains("xtoast: warning: \(config):4: colour: unknown setting"))
        }

        @Test func noConfigIgnoresTheFileAndUnknownPresetsAreUsageErrors() throws {
            let config = try writeFile("radius = 6\n", ".config")
            defer { try? FileManager.default.removeItem(atPath: config) }
            let server = try PrivateXServer()
            let ignored = try XToastProcess.run(["--config", config, "--no-config", "--print-config"], display: server.name)
            #expect(ignored.stdout.contains("radius       = 5 "))
            let unknown = try XToastProcess.run(["--config", config, "--preset", "nope", "Hello"], display: server.name)
            #expect(unknown.status == 64)
            #expect(unknown.stderr.hasPrefix("xtoast: unknown preset \"nope\""))
        }
    }
}

/// `make install` and what it installs.
struct Installation {
    func packageRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func releaseBinary() throws -> String {
        let release = packageRoot().appendingPathComponent(".build/release/xtoast").path
        guard FileManager.default.isExecutableFile(atPath: release) else {
            throw TestFailure("no release build at \(release): the test command builds it (make test)")
        }
        return release
    }

    @Test func makeInstallPutsEverythingInPlaceAndTheBinaryRunsAlone() throws {
        let root = packageRoot()
        _ = try releaseBinary()  // make install-files installs it
        let destination = temporaryPath("-install")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        try runTool("make", ["-C", root.path, "install-files", "DESTDIR=\(destination)", "PREFIX=/usr"])
        let prefix = destination + "/usr"
        let files = [
            "bin/xtoast", "share/man/man1/xtoast.1", "share/bash-completion/completions/xtoast", "share/zsh/site-functions/_xtoast",
            "share/fish/vendor_completions.d/xtoast.fish", "share/doc/xtoast/config.example",
        ]
        for file in files { #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) missing") }

        // The Swift runtime is inside: it runs with no toolchain library path at all.
        let child = try Child(
            [prefix + "/bin/xtoast", "--version"], environment: ["LD_LIBRARY_PATH": nil, "PATH": "/usr/bin:/bin"],
            stdout: destination + "/version.txt")
        #expect(child.wait(timeout: 10) == 0)
        #expect((try? String(contentsOfFile: destination + "/version.txt", encoding: .utf8))?.hasPrefix("xtoast ") == true)
        let libraries = try runTool("ldd", [prefix + "/bin/xtoast"])
        #expect(!libraries.contains("swift"), "links the toolchain: \(libraries)")

        let manual = try runTool("man", ["-l", "-P", "cat", prefix + "/share/man/man1/xtoast.1"])
        #expect(manual.contains("EXIT STATUS") && manual.contains("--duration"))
        try runTool("bash", ["-n", prefix + "/share/bash-completion/completions/xtoast"])

        try runTool("make", ["-C", root.path, "uninstall", "DESTDIR=\(destination)", "PREFIX=/usr"])
        for file in files { #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) left after uninstall") }
    }

    /// The C headers' state exists once in the release binary. As statics inside inline
    /// functions they had a copy per object file: a second watchdog, disarmed while the real one
    /// ended every toast held over 5 s; a second screen saver key, which cost a round trip.
    @Test func theReleaseBinaryHasOneOfEachPieceOfCState() throws {
        let symbols = try runTool("nm", [try releaseBinary()]).split(separator: "\n")
        for name in ["xtoast_watchdog", "xtoast_screensaver_key", "xtoast_xinput_key", "xtoast_main_call", "xtoast_service_vtable"] {
            // Address, type, name: defined here (a weak reference never defined has no address).
            #expect(symbols.filter { $0.split(separator: " ").count == 3 && $0.hasSuffix(" \(name)") }.count == 1, "\(name)")
        }
        // No other state hides in a static of an inline function (one copy per object file).
        #expect(!symbols.contains { $0.contains(" xtoast_") && $0.split(separator: " ").last?.contains(".") == true })
    }

    /// The Makefile's release link, which keeps the resident memory low: no run path, MIT-SHM
    /// declined to cairo, and where the toolchain has lld (`XTOAST_RELEASE_LINK`, set by `make
    /// test`) the functions a toast runs laid out in the order of `startup.order` and relative
    /// relocations packed. A stale order file costs memory without any other sign, so it shows
    /// here.
    @Test func theReleaseBinaryIsLaidOutForAQuickStart() throws {
        let release = try releaseBinary()
        guard let link = ProcessInfo.processInfo.environment["XTOAST_RELEASE_LINK"]?.split(separator: " ") else {
            throw TestFailure("XTOAST_RELEASE_LINK is not set: run the tests through the README's test command (make test)")
        }
        let dynamic = try runTool("readelf", ["-d", release])
        #expect(!dynamic.contains("RUNPATH") && !dynamic.contains("RPATH"))
        // cairo finds our XShmQueryExtension (SharedMemory.swift) only when the binary exports it.
        let exported = try runTool("readelf", ["--dyn-syms", "-W", release]).split(separator: "\n")
        #expect(exported.contains { $0.hasSuffix(" XShmQueryExtension") && !$0.contains(" UND ") })
        if link.contains("packed") { #expect(dynamic.contains("(RELR)"), "relative relocations are not packed") }
        guard link.contains("ordered") else { return }

        let orderFile = packageRoot().appendingPathComponent("Sources/xtoast/startup.order").path
        let order = try String(contentsOfFile: orderFile, encoding: .utf8).split(separator: "\n").map(String.init)
        var address: [String: UInt64] = [:]
        for line in try runTool("nm", ["--defined-only", release]).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, let value = UInt64(fields[0], radix: 16) { address[String(fields[2])] = value }
        }
        let found = order.compactMap { address[$0] }
        let gone = order.count - found.count
        #expect(gone * 10 <= order.count, "\(gone) of \(order.count) names in startup.order are gone: make startup-order")
        // The linker follows the file where it can move a function: most neighbours in the file
        // are neighbours in that order in the binary (measured: 0.90 with the order, 0.68 when
        // the objects were compiled without a section for each function, 0.50 without the order;
        // functions that share a section with others, as much of the standard library does,
        // stay where they are). SwiftPM does not compile again when only the flags changed.
        let increasing = zip(found, found.dropFirst()).filter { $0 < $1 }.count
        #expect(
            increasing * 100 >= (found.count - 1) * 85,
            "startup.order was not applied: \(increasing) of \(found.count - 1) in order (objects of an older build? make clean)"
        )
        try theStandardLibrarysPagesAreCutApart(release)
    }

    /// The standard library's one text section starts a page and has the size stdlib-pages.h
    /// was made for, so split.c cuts the pages a toast runs apart from the rest (each run a
    /// mapping of its own in a running toast); else it does nothing and costs 1 MB, silently.
    func theStandardLibrarysPagesAreCutApart(_ release: String) throws {
        let header = try String(
            contentsOfFile: packageRoot().appendingPathComponent("Sources/CStartup/stdlib-pages.h").path, encoding: .utf8)
        let recorded = header.split(separator: "\n").first { $0.hasPrefix("#define XTOAST_STDLIB_TEXT_SIZE ") }
            .flatMap { UInt64($0.split(separator: " ").last!.dropFirst(2), radix: 16) }
        let runs = header.components(separatedBy: "XTOAST_STDLIB_HOT_RUNS").last!.filter { $0 == "{" }.count
        let section = try runTool("readelf", ["-SW", release]).split(separator: "\n").first { $0.contains(" .text.stdlib ") }
        let fields = section.map { $0.split(separator: "]", maxSplits: 1)[1].split(separator: " ") } ?? []
        #expect(fields.count >= 5 && UInt64(fields[2], radix: 16).map { $0 % 4096 == 0 } == true, "\(section ?? "no .text.stdlib")")
        #expect(
            fields.count >= 5 && UInt64(fields[4], radix: 16) == recorded,
            "the standard library's text is not the size stdlib-pages.h was made for (another toolchain?): make startup-order")

        let display = try sharedDisplay()
        let watcher = try XWatcher(display: display)
        let toast = try XToastProcess(["--duration", "sticky", "Cut apart"], display: display, executable: release)
        defer { toast.child.stop() }
        _ = try watcher.waitForToasts()
        let maps = try runTool("cat", ["/proc/\(toast.child.pid)/maps"])  // Foundation reads 4 KB of a /proc file
        let binary = URL(fileURLWithPath: release).resolvingSymlinksInPath().path  // .build/release is a link
        let mappings = maps.split(separator: "\n").filter { $0.hasSuffix(" " + binary) }.count
        // Five mappings of the binary without the cut, two more for each run.
        #expect(mappings >= 2 * runs, "\(mappings) mappings of the binary for \(runs) runs of hot pages")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsListEveryOption(shell: String) throws {
        let result = try XToastProcess.run(["--generate-completion", shell], display: nil)
        #expect(result.status == 0)
        let help = try XToastProcess.run(["--help"], display: nil).stdout
        // Every option --help shows is offered, and nothing --help does not show.
        let options = Set(
            help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," }).filter { $0.hasPrefix("--") && $0.count > 2 }
                .map { String($0.prefix { $0 != "=" && $0 != "<" }) }.filter { $0.dropFirst(2).allSatisfy { $0.isLetter || $0 == "-" } })
        #expect(options.count > 30)
        for option in options {
            let name = String(option.dropFirst(2))
            #expect(
                result.stdout.contains("--\(name)") || result.stdout.contains("-l \(name) ") || result.stdout.contains("-l \(name)\n"),
                "\(shell) lacks \(option)")
        }
    }
}
