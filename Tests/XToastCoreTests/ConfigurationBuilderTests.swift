import Testing

@testable import XToastCore

private let path = "/home/ada/.config/xtoast/config"

/// All the sources, put together as the command does: the preset comes from the command line;
/// then X resources, the config file (when there is one), the command line.
private func build(resources: String = "", file: String? = nil, arguments: [String] = []) throws -> ConfigurationBuilder {
    let options = try CommandLineParser.parse(arguments).options
    var commandLineOnly = ConfigurationBuilder()
    try commandLineOnly.apply(commandLine: options)
    let preset = commandLineOnly.configuration.preset

    var builder = ConfigurationBuilder()
    builder.apply(resources: XResources.entries(in: resources), preset: preset)
    if let file { builder.apply(file: ConfigFile(parsing: file), path: path, preset: preset) }
    try builder.apply(commandLine: options)
    return builder
}

@Suite("Configuration builder")
struct ConfigurationBuilderTests {
    /// The sources that may set a value, lowest precedence first.
    enum Layer: Int, CaseIterable, Sendable, CustomTestStringConvertible {
        case resources, presetResources, file, fileSection, commandLine

        /// The radius each layer sets, so that the winner can be told from its value.
        var radius: Double { [3, 4, 6, 7, 9][rawValue] }

        var testDescription: String { String(describing: self) }
    }

    // MARK: Precedence

    @Test("Nothing given: the compiled defaults, and no origins or warnings")
    func defaults() throws {
        let builder = try build()
        #expect(builder.configuration.style == Style.toast)
        #expect(builder.configuration.duration == .automatic)
        #expect(builder.origins.isEmpty)
        #expect(builder.warnings.isEmpty)
    }

    @Test("The reference case: radius from three sources, background from one")
    func reference() throws {
        let builder = try build(
            resources: "xtoast.radius:\t3\nxtoast.background:\t#11223344\n",
            file: "# mine\nradius = 6\n",
            arguments: ["--radius", "9", "Hello"])
        #expect(builder.configuration.style.cornerRadius == 9)
        #expect(builder.origins["radius"]?.value == "9")
        #expect(builder.origins["radius"]?.source == .commandLine)
        #expect(builder.configuration.style.background == Color(hex: "#11223344"))
        #expect(builder.origins["background"]?.value == "#11223344")
        #expect(builder.origins["background"]?.source == .resources(preset: nil))
        #expect(builder.origins["font"] == nil)
        #expect(builder.warnings.isEmpty)
    }

    @Test("Without the command line, the file wins over X resources, recording its line")
    func fileOverResources() throws {
        let builder = try build(resources: "xtoast.radius: 3", file: "# mine\nradius = 6\n")
        #expect(builder.configuration.style.cornerRadius == 6)
        #expect(builder.origins["radius"]?.value == "6")
        #expect(builder.origins["radius"]?.source == .file(path: path, line: 2))
    }

    @Test(
        "For every combination of sources, the one of highest precedence wins: all X resources, then the whole file, then the command line",
        arguments: (0..<(1 << Layer.allCases.count)).map { bits in Layer.allCases.filter { bits & (1 << $0.rawValue) != 0 } })
    func precedence(layers: [Layer]) throws {
        func has(_ layer: Layer) -> Bool { layers.contains(layer) }
        var resources = ""
        if has(.resources) { resources += "xtoast.radius: 3\n" }
        if has(.presetResources) { resources += "xtoast.volume.radius: 4\n" }
        // Placeholder comments keep the line numbers fixed: the general entry on line 1, the section's on line 3.
        let file = [
            has(.file) ? "radius = 6" : "# no radius", "[volume]", has(.fileSection) ? "radius = 7" : "# no radius",
        ].joined(separator: "\n")
        let arguments = ["--preset", "volume"] + (has(.commandLine) ? ["--radius=9"] : [])

        let builder = try build(resources: resources, file: file, arguments: arguments)

        let expected: (value: String, source: ConfigurationBuilder.Source)? =
            switch layers.last {
            case nil: nil
            case .resources: ("3", .resources(preset: nil))
            case .presetResources: ("4", .resources(preset: "volume"))
            case .file: ("6", .file(path: path, line: 1))
            case .fileSection: ("7", .file(path: path, line: 3))
            case .commandLine: ("9", .commandLine)
            }
        #expect(builder.configuration.style.cornerRadius == layers.last?.radius ?? Style.toast.cornerRadius)
        #expect(builder.origins["radius"]?.value == expected?.value)
        #expect(builder.origins["radius"]?.source == expected?.source)
        #expect(builder.warnings.isEmpty)
    }

    @Test("A preset's X resource beats the general one but loses to the general file entry")
    func presetResourceAndGeneralFileEntry() throws {
        let resources = "xtoast.position: top\nxtoast.volume.position: center\n"
        let onlyResources = try build(resources: resources, arguments: ["--preset", "volume"])
        #expect(onlyResources.configuration.style.position == .center)
        #expect(onlyResources.origins["position"]?.source == .resources(preset: "volume"))

        let withFile = try build(resources: resources, file: "position = top-left\n", arguments: ["--preset", "volume"])
        #expect(withFile.configuration.style.position == .topLeft)
        #expect(withFile.origins["position"]?.source == .file(path: path, line: 1))
    }

    @Test("Without --preset, sections and xtoast.PRESET.* are not applied")
    func noPreset() throws {
        let builder = try build(resources: "xtoast.volume.radius: 4", file: "[volume]\nradius = 7\n")
        #expect(builder.configuration.style.cornerRadius == Style.toast.cornerRadius)
        #expect(builder.origins["radius"] == nil)
    }

    @Test("Only the chosen preset is applied; other presets' entries are not read, not even to warn")
    func otherPresets() throws {
        let builder = try build(
            resources: "xtoast.urgent.radius: big\nxtoast.volume.radius: 4\n",
            file: "[urgent]\nradius = big\ncolour = red\n[volume]\npadding = 2\n",
            arguments: ["--preset", "volume"])
        #expect(builder.configuration.style.cornerRadius == 4)
        #expect(builder.configuration.style.padding == 2)
        #expect(builder.origins["padding"]?.source == .file(path: path, line: 5))
        #expect(builder.warnings.isEmpty)
    }

    @Test("Within a source, a later entry wins")
    func laterEntryWins() throws {
        let builder = try build(resources: "xtoast.radius: 3\nxtoast.radius: 4\n", file: "radius = 6\nradius = 7\n")
        #expect(builder.configuration.style.cornerRadius == 7)
        #expect(builder.origins["radius"]?.source == .file(path: path, line: 2))
    }

    @Test("The command line records flags as \"true\" and invocation options too")
    func commandLineOrigins() throws {
        let builder = try build(arguments: ["--stack", "--detach", "--duration=1500ms"])
        #expect(builder.configuration.stack)
        #expect(builder.origins["stack"]?.value == "true")
        #expect(builder.origins["detach"]?.source == .commandLine)
        #expect(builder.origins["duration"]?.value == "1500ms")
    }

    @Test("A bad value on the command line is a usage error, thrown")
    func badCommandLine() {
        #expect(throws: OptionError("invalid radius \"big\": expected a number from 0 to 1000")) {
            try build(arguments: ["--radius", "big"])
        }
    }

    // MARK: Warnings

    @Test("A bad file entry is a warning naming the file and line; the X resource's value stays")
    func badFileEntry() throws {
        let builder = try build(resources: "xtoast.radius: 3", file: "font = Sans 12\nradius = big\n")
        #expect(builder.warnings == ["\(path):2: radius: invalid radius \"big\": expected a number from 0 to 1000"])
        #expect(builder.configuration.style.cornerRadius == 3)
        #expect(builder.origins["radius"]?.source == .resources(preset: nil))
        #expect(builder.configuration.style.font == "Sans 12")
    }

    @Test("A bad X resource is a warning naming the resource; the default stays")
    func badResource() throws {
        let builder = try build(resources: "xtoast.radius: big\nxtoast.volume.position: middle\n", arguments: ["--preset", "volume"])
        #expect(
            builder.warnings == [
                "X resource xtoast.radius: invalid radius \"big\": expected a number from 0 to 1000",
                "X resource xtoast.volume.position: invalid position \"middle\": "
                    + "expected top, center, bottom, top-left, top-right, bottom-left, bottom-right",
            ])
        #expect(builder.configuration.style.cornerRadius == Style.toast.cornerRadius)
        #expect(builder.configuration.style.position == Style.toast.position)
        #expect(builder.origins.isEmpty == false)  // --preset itself
        #expect(builder.origins["radius"] == nil)
        #expect(builder.origins["position"] == nil)
    }

    @Test("A bad preset entry keeps the general value")
    func badPresetEntry() throws {
        let builder = try build(file: "radius = 6\n[volume]\nradius = -1\n", arguments: ["--preset", "volume"])
        #expect(builder.warnings == ["\(path):3: radius: invalid radius \"-1\": expected a number from 0 to 1000"])
        #expect(builder.configuration.style.cornerRadius == 6)
        #expect(builder.origins["radius"]?.source == .file(path: path, line: 1))
    }

    @Test("Unknown keys are warnings")
    func unknownKeys() throws {
        let builder = try build(resources: "xtoast.colour: red\n", file: "Radius = 3\n")
        #expect(
            builder.warnings == [
                "X resource xtoast.colour: unknown setting", "\(path):1: Radius: unknown setting",
            ])
        #expect(builder.origins.isEmpty)
    }

    @Test(
        "Invocation-only options in a file or X resources are reported as such, never applied",
        arguments: OptionTable.all.filter { $0.scope == .invocation }.map(\.name))
    func invocationOptionsInFiles(name: String) throws {
        let option = try #require(OptionTable.named(name))
        let value =
            switch name {
            case _ where option.isFlag: "true"
            case "in": "5m"
            case "at": "14:00"
            case "generate-completion": "bash"
            default: "somewhere"
            }
        let builder = try build(resources: "xtoast.\(name): \(value)\n", file: "\(name) = \(value)\n")
        #expect(
            builder.warnings == [
                "X resource xtoast.\(name): a command-line option, not a setting",
                "\(path):1: \(name): a command-line option, not a setting",
            ])
        #expect(builder.origins.isEmpty)
        let c = builder.configuration
        #expect(c.mode == .show)
        #expect(!c.action && !c.detach && !c.printOutcome && !c.noConfig)
        #expect(c.delay == nil && c.at == nil && c.timeZone == nil && c.display == nil)
        #expect(c.renderPNG == nil && c.preset == nil && c.configFile == nil)
    }

    @Test("Lines the file could not read are warnings too; a file's warnings come in the order of its lines")
    func fileProblems() throws {
        let builder = try build(
            file: "radius = big\nno equals sign\n[volume]\ncolour = red\n[unclosed\n", arguments: ["--preset", "volume"])
        #expect(
            builder.warnings == [
                "\(path):1: radius: invalid radius \"big\": expected a number from 0 to 1000", "\(path):2: expected key = value",
                "\(path):4: colour: unknown setting", "\(path):5: expected [name]",
            ])
    }

    @Test("Warnings come in the order the sources are applied: X resources, then the file")
    func warningOrder() throws {
        let builder = try build(resources: "xtoast.one: 1\nxtoast.two: 2\n", file: "three = 3\n")
        #expect(builder.warnings.count == 3)
        #expect(builder.warnings[0].hasPrefix("X resource xtoast.one:"))
        #expect(builder.warnings[1].hasPrefix("X resource xtoast.two:"))
        #expect(builder.warnings[2].hasPrefix("\(path):1: three:"))
    }

    // MARK: Sources and the report

    @Test(
        "Sources, as --print-config names them",
        arguments: [
            (ConfigurationBuilder.Source.defaults, "default"), (.resources(preset: nil), "X resource xtoast.*"),
            (.resources(preset: "volume"), "X resource xtoast.volume.*"), (.file(path: path, line: 12), "\(path):12"),
            (.commandLine, "command line"),
        ])
    func sourceDescriptions(source: ConfigurationBuilder.Source, expected: String) {
        #expect(source.description == expected)
    }

    @Test("The report of the defaults, line for line")
    func defaultReport() throws {
        let expected = """
            duration     = auto                       # default
            position     = bottom                     # default
            offset       = 0,0                        # default
            monitor      = pointer                    # default
            fullscreen   = auto                       # default
            idle         = 120                        # default
            font         = Sans 14                    # default
            foreground   = #ffffffff                  # default
            background   = #000000cc                  # default
            radius       = 5                          # default
            padding      = 10                         # default
            max-width    = a third of the monitor     # default
            max-lines    = 12                         # default
            fade-in      = 0.2                        # default
            fade-out     = 0.8                        # default
            easing       = ease-in-out                # default
            scale        = Xft.dpi/96                 # default
            title        =                            # default
            sound        =                            # default
            icon         =                            # default
            progress     =                            # default
            markup       = false                      # default
            announce     = true                       # default
            animation    = fade                       # default
            stack        = false                      # default
            click-through = false                     # default
            urgent       = auto                       # default
            tag          =                            # default
            in-history   = true                       # default
            keep-notifications = 100                  # default
            keep-notifications-for = 1d               # default
            service-idle = 30s                        # default
            bursts       = joined                     # default
            after-quiet  = summary                    # default
            """
        #expect(try build().report == expected)
    }

    @Test("The report lists every look option once, in table order, with its value and source")
    func report() throws {
        let builder = try build(
            resources: "xtoast.background: #11223344\nxtoast.volume.position: center\n",
            file: "radius = 6\n[volume]\nfont = Mono 9\n",
            arguments: ["--preset", "volume", "--stack", "--tag", "volume", "--detach", "--progress", "40!", "--markup"])
        let lines = builder.report.split(separator: "\n").map(String.init)
        let look = OptionTable.all.filter { $0.scope != .invocation }.map(\.name)
        #expect(lines.map { String($0.prefix { $0 != " " }) } == look)

        func line(_ name: String) -> String? { lines.first { $0.hasPrefix(name + " ") } }
        #expect(line("background") == "background   = #11223344                  # X resource xtoast.*")
        #expect(line("position") == "position     = center                     # X resource xtoast.volume.*")
        #expect(line("radius") == "radius       = 6                          # \(path):1")
        #expect(line("font") == "font         = Mono 9                     # \(path):3")
        #expect(line("stack") == "stack        = true                       # command line")
        #expect(line("tag") == "tag          = volume                     # command line")
        #expect(line("padding") == "padding      = 10                         # default")
        #expect(line("progress") == "progress     = 40!                        # command line")
        #expect(line("markup") == "markup       = true                       # command line")
        #expect(line("animation") == "animation    = fade                       # default")
        // Invocation options are not settings.
        #expect(!builder.report.contains("detach"))
        #expect(!builder.report.contains("preset"))
    }

    @Test("A file or resources full of bad lines report the first few and a count")
    func warningsAreBounded() throws {
        let lines = (1...5000).map { "nonsense\($0) = \u{1B}[2J" }.joined(separator: "\n")
        let resources = (1...300).map { "xtoast.bogus\($0): 1" }.joined(separator: "\n")
        let builder = try build(resources: resources, file: lines)
        let limit = ConfigurationBuilder.warningsPerSource
        #expect(builder.warnings.count == 2 * (limit + 1))
        #expect(builder.warnings[limit] == "X resources: \(300 - limit) more problems not shown")
        #expect(builder.warnings.last == "\(path): \(5000 - limit) more problems not shown")
        #expect(builder.warnings[limit + 1].hasPrefix("\(path):1: "))
    }

    @Test("The report shows a value's control characters as escapes")
    func reportEscapes() throws {
        let builder = try build(file: "font = Sans\u{1B}]0;title\u{7} 12\n")
        #expect(builder.report.contains("font         = Sans\\x1B]0;title\\x07 12"))
        #expect(!builder.report.unicodeScalars.contains("\u{1B}"))
    }
}
