import Testing

@testable import XToastCore

private typealias Entry = ConfigFile.Entry

/// The problems of a file as `LINE: message` strings, to compare with `==`.
private func problems(_ file: ConfigFile) -> [String] {
    file.problems.map { "\($0.line): \($0.message)" }
}

@Suite("Config file")
struct ConfigFileTests {
    @Test("The reference file: global entries, then sections; comments and blank lines skipped")
    func reference() {
        let file = ConfigFile(
            parsing: """
                # xtoast
                font = Sans 12
                background = #000000cc
                ; another comment
                   # an indented comment
                radius=3

                [volume]
                position = center
                tag = "volume"

                [urgent]
                duration = sticky
                """)
        #expect(
            file.global == [
                Entry(key: "font", value: "Sans 12", line: 2), Entry(key: "background", value: "#000000cc", line: 3),
                Entry(key: "radius", value: "3", line: 6),
            ])
        #expect(
            file.sections == [
                "volume": [Entry(key: "position", value: "center", line: 9), Entry(key: "tag", value: "volume", line: 10)],
                "urgent": [Entry(key: "duration", value: "sticky", line: 13)],
            ])
        #expect(file.problems.isEmpty)
    }

    @Test(
        "A '#' starting a value or inside a word is kept; after white space it starts a comment",
        arguments: [
            ("background = #000000cc", "#000000cc"),
            ("background = #000000cc   # dark", "#000000cc"),
            ("font = Sans 12 # big", "Sans 12"),
            ("tag = a#b", "a#b"),
            ("tag = a;b", "a;b"),
            ("tag = ;", ";"),
            ("tag = #", "#"),
        ])
    func commentsAreWholeLines(line: String, expected: String) {
        #expect(ConfigFile(parsing: line).global.map(\.value) == [expected])
    }

    @Test(
        "Comment lines, with or without indentation",
        arguments: ["# radius = 3", "; radius = 3", "  # radius = 3", "\t; radius = 3", "#", ";"])
    func commentLines(line: String) {
        let file = ConfigFile(parsing: line)
        #expect(file.global.isEmpty)
        #expect(file.problems.isEmpty)
    }

    @Test(
        "Keys and values are trimmed; one pair of double quotes around a value is removed",
        arguments: [
            ("font = Sans 12", "font", "Sans 12"),
            ("  \tfont\t=\t Sans 12 \t", "font", "Sans 12"),
            ("font=Sans 12", "font", "Sans 12"),
            ("font = \"Sans 12\"", "font", "Sans 12"),
            ("font = \"  padded  \"", "font", "  padded  "),
            ("tag = \"\"", "tag", ""),
            ("tag = \"a\"b\"", "tag", "a\"b"),
            ("tag = \"", "tag", "\""),
            ("tag = \"open", "tag", "\"open"),
            ("tag = 'single'", "tag", "'single'"),
            ("tag =", "tag", ""),
            ("tag = a = b", "tag", "a = b"),
        ])
    func trimming(line: String, key: String, value: String) {
        #expect(ConfigFile(parsing: line).global == [Entry(key: key, value: value, line: 1)])
    }

    @Test(
        "CRLF and LF line ends read the same, with the same line numbers",
        arguments: ["\n", "\r\n"])
    func lineEnds(newline: String) {
        let text = ["# comment", "font = Sans 12", "", "[volume]", "position = top", "tag = \"volume\"", ""].joined(separator: newline)
        let file = ConfigFile(parsing: text)
        #expect(file.global == [Entry(key: "font", value: "Sans 12", line: 2)])
        #expect(file.sections == ["volume": [Entry(key: "position", value: "top", line: 5), Entry(key: "tag", value: "volume", line: 6)]])
        #expect(file.problems.isEmpty)
    }

    @Test("A file may mix line ends and end without one")
    func mixedLineEnds() {
        let file = ConfigFile(parsing: "font = Sans 12\r\nradius = 3\npadding = 4\r\n\r\nmax-lines = 2")
        #expect(
            file.global == [
                Entry(key: "font", value: "Sans 12", line: 1), Entry(key: "radius", value: "3", line: 2),
                Entry(key: "padding", value: "4", line: 3), Entry(key: "max-lines", value: "2", line: 5),
            ])
    }

    @Test("Unreadable lines are problems with their line numbers; the lines around them are read")
    func problemLines() {
        let file = ConfigFile(
            parsing: """
                font = Sans 12
                no equals sign
                [unclosed
                radius = 3
                []
                [volume]
                position top
                position = top
                """)
        #expect(problems(file) == ["2: expected key = value", "3: expected [name]", "5: expected [name]", "7: expected key = value"])
        #expect(file.global == [Entry(key: "font", value: "Sans 12", line: 1), Entry(key: "radius", value: "3", line: 4)])
        #expect(file.sections == ["volume": [Entry(key: "position", value: "top", line: 8)]])
    }

    @Test("A section given again later adds to the first")
    func repeatedSection() {
        let file = ConfigFile(
            parsing: """
                [volume]
                position = top
                [urgent]
                duration = sticky
                [volume]
                tag = volume
                """)
        #expect(
            file.sections == [
                "volume": [Entry(key: "position", value: "top", line: 2), Entry(key: "tag", value: "volume", line: 6)],
                "urgent": [Entry(key: "duration", value: "sticky", line: 4)],
            ])
        #expect(file.global.isEmpty)
    }

    @Test("Section names are trimmed; an empty section still exists (the preset is known)")
    func sectionNames() {
        let file = ConfigFile(parsing: "[ volume ]\nposition = top\n[quiet]\n")
        #expect(file.sections == ["volume": [Entry(key: "position", value: "top", line: 2)], "quiet": []])
    }

    @Test("Keys are kept as written: the builder, not the file, decides what is known")
    func keysAsWritten() {
        let file = ConfigFile(parsing: "Radius = 3\ndismiss = true\ncolour = red")
        #expect(file.global.map(\.key) == ["Radius", "dismiss", "colour"])
    }

    @Test("An empty file, or one of blank lines, has nothing", arguments: ["", "\n", "\n\n   \n\t\n", "\r\n\r\n"])
    func empty(text: String) {
        let file = ConfigFile(parsing: text)
        #expect(file.global.isEmpty)
        #expect(file.sections.isEmpty)
        #expect(file.problems.isEmpty)
    }
}

@Suite("X resources")
struct XResourcesTests {
    typealias Entry = XResources.Entry

    @Test("xtoast's entries in a resource database, as xrdb -query prints it; other programs' are ignored")
    func reference() {
        let database = """
            Xft.dpi:\t96
            xtoast.background:\t#000000cc
            URxvt.font: x
            Xtoast.font:\tSans 12
            xtoast.volume.position:\ttop
            xtoast.a.b.c: x
            *background:\t#ffffff
            xtoast*font:\tMono 9
            """
        #expect(
            XResources.entries(in: database) == [
                Entry(preset: nil, key: "background", value: "#000000cc"), Entry(preset: nil, key: "font", value: "Sans 12"),
                Entry(preset: "volume", key: "position", value: "top"),
            ])
    }

    @Test(
        "One line each",
        arguments: [
            ("xtoast.background:\t#000000cc", Entry(preset: nil, key: "background", value: "#000000cc")),
            ("Xtoast.font:\tSans 12", Entry(preset: nil, key: "font", value: "Sans 12")),
            ("xtoast.volume.position:\ttop", Entry(preset: "volume", key: "position", value: "top")),
            ("xtoast.font:   Sans 12  \t", Entry(preset: nil, key: "font", value: "Sans 12")),
            ("xtoast.font :Sans 12", Entry(preset: nil, key: "font", value: "Sans 12")),
            ("xtoast.tag: a:b", Entry(preset: nil, key: "tag", value: "a:b")),
            ("xtoast.tag:", Entry(preset: nil, key: "tag", value: "")),
            // The key is passed on as written; the builder warns about unknown ones.
            ("xtoast.colour: red", Entry(preset: nil, key: "colour", value: "red")),
        ])
    func line(text: String, expected: Entry) {
        #expect(XResources.entries(in: text) == [expected])
    }

    @Test(
        "Other programs' resources, deeper names, wildcards and lines without a colon are ignored",
        arguments: [
            "Xft.dpi:\t96", "URxvt.font: x", "*background: #fff", "xtoast*font: x", "xtoast.a.b.c: x", "XTOAST.font: x",
            "xtoastx.font: x", "other.xtoast.font: x", "xtoast: x", "xtoast.font Sans", "",
        ])
    func ignored(text: String) {
        #expect(XResources.entries(in: text).isEmpty)
    }

    @Test("Entries keep the order of the database (a later one wins when applied)")
    func order() {
        let entries = XResources.entries(in: "xtoast.radius: 3\nxtoast.volume.radius: 4\nxtoast.radius: 5\n")
        #expect(entries.map(\.value) == ["3", "4", "5"])
    }
}
