import Glibc
import XToastSystem

/// Finds a freedesktop icon by name, roughly as the icon theme specification says: in the
/// user's and the system's icon folders; the user's theme, the themes it inherits, Adwaita,
/// then hicolor; PNG or SVG, at the nearest size at least as large as needed (a scalable folder
/// fits any size); then /usr/share/pixmaps.
enum IconTheme {
    /// The icon folders: `$XDG_DATA_HOME/icons` (or ~/.local/share/icons), `$XDG_DATA_DIRS/icons`.
    static func defaultRoots() -> [String] {
        var roots: [String] = []
        let environment = { (key: String) in Environment.value(key) }
        if let home = environment("XDG_DATA_HOME") {
            roots.append(home + "/icons")
        } else if let home = environment("HOME") {
            roots.append(home + "/.local/share/icons")
        }
        roots += (environment("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":").map { $0 + "/icons" }
        return roots
    }

    /// The path of the icon `name` for `pixelSize` device pixels. `roots` and `pixmaps` are
    /// parameters so that tests look in their own folders without changing the environment
    /// (tests run in parallel in one process).
    static func lookup(
        _ name: String, pixelSize: Int, theme: String? = nil, roots: [String]? = nil, pixmaps: String = "/usr/share/pixmaps"
    ) -> String? {
        // A name, not a path: another client (XSETTINGS, X resources) may have written it.
        guard isPlainName(name) else { return nil }
        let roots = roots ?? defaultRoots()
        for themeName in themes(startingWith: theme, in: roots) {
            let index = Index.read(themeName, in: roots)
            for directory in (index?.directories ?? Directory.guesses).ranked(for: pixelSize) {
                for root in roots {
                    for suffix in [".png", ".svg"] {
                        let path = "\(root)/\(themeName)/\(directory.path)/\(name)\(suffix)"
                        if access(path, R_OK) == 0 { return path }
                    }
                }
            }
        }
        for suffix in [".png", ".svg"] where access("\(pixmaps)/\(name)\(suffix)", R_OK) == 0 {
            return "\(pixmaps)/\(name)\(suffix)"
        }
        return nil
    }

    /// The themes looked in, in order: `theme` and what it inherits (depth first, each once,
    /// at most `themeLimit`: a theme's `Inherits=` is anyone's file), then Adwaita (where
    /// GNOME-based themes find what they leave out) and what it inherits, then hicolor, as the
    /// spec says. The fallbacks have a limit of their own: a chain that fills its limit cannot
    /// push them out.
    static func themes(startingWith theme: String?, in roots: [String]) -> [String] {
        var found: [String] = []
        func visit(_ name: String, depth: Int, limit: Int) {
            guard found.count < limit, depth <= 8, isPlainName(name), !found.contains(name), name != "hicolor" else { return }
            found.append(name)
            for parent in Index.read(name, in: roots)?.inherits ?? [] { visit(parent, depth: depth + 1, limit: limit) }
        }
        if let theme { visit(theme, depth: 0, limit: themeLimit) }
        visit("Adwaita", depth: 0, limit: found.count + themeLimit)
        return found + ["hicolor"]
    }

    static let themeLimit = 16

    private static func isPlainName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0)
    }

    /// Whether `path`, a folder an index.theme lists, stays inside its theme: relative, each part
    /// a plain name as theme names are (`48x48/apps`, never `../x` or `/usr/share`). An index is
    /// anyone's file, and its folders are joined to the theme's path.
    static func isFolderInside(_ path: String) -> Bool {
        !path.isEmpty && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { isPlainName($0) }
    }

    /// One folder of a theme, as index.theme describes it.
    struct Directory {
        var path: String
        var size: Int
        var scalable = false
        var maxSize: Int? = nil

        /// For a theme without index.theme: the usual layout of sizes and contexts.
        static let guesses: [Directory] = {
            let contexts = ["apps", "status", "actions", "devices", "places", "mimetypes", "categories", "emblems", "legacy"]
            let sizes = [16, 22, 24, 32, 48, 64, 96, 128, 256, 512]
            return sizes.flatMap { size in contexts.map { Directory(path: "\(size)x\(size)/\($0)", size: size) } }
                + ["scalable", "symbolic"].flatMap { folder in
                    contexts.map { Directory(path: "\(folder)/\($0)", size: 48, scalable: true) }
                }
        }()
    }

    /// What a theme's index.theme says: its folders and the themes it inherits.
    struct Index {
        var directories: [Directory] = []
        var inherits: [String] = []

        /// index.theme files are a few to a hundred kilobytes (Papirus); a larger one is not read.
        static let byteLimit = 1 << 20

        /// The index.theme of `theme` in the first root that has one.
        static func read(_ theme: String, in roots: [String]) -> Index? {
            for root in roots {
                guard let file = try? RegularFile.read("\(root)/\(theme)/index.theme", limit: byteLimit), !file.truncated
                else { continue }
                return parse(file.bytes)
            }
            return nil
        }

        /// Reads the `[Icon Theme]` section and the sections of the folders it lists. On bytes,
        /// keeping only the keys used: hicolor's index has 650 sections, and string handling
        /// per character cost milliseconds for each icon name looked up.
        static func parse(_ bytes: [UInt8]) -> Index {
            let wanted: Set<String> = ["Inherits", "Directories", "Size", "Type", "Scale", "MaxSize"]
            var sections: [String: [String: String]] = [:]
            var current = ""
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                let line = trimmed(bytes[start..<end])
                start = end + 1
                if line.first == UInt8(ascii: "["), line.last == UInt8(ascii: "]") {
                    current = String(decoding: line.dropFirst().dropLast(), as: UTF8.self)
                } else if let equals = line.firstIndex(of: UInt8(ascii: "=")) {
                    let key = String(decoding: trimmed(line[..<equals]), as: UTF8.self)
                    // The first value of a key counts, as in GLib's key files.
                    guard wanted.contains(key), sections[current]?[key] == nil else { continue }
                    sections[current, default: [:]][key] = String(decoding: trimmed(line[(equals + 1)...]), as: UTF8.self)
                }
            }
            let main = sections["Icon Theme"] ?? [:]
            let list = { (key: String) in
                (main[key] ?? "").split(separator: ",").map { String(decoding: trimmed(ArraySlice($0.utf8)), as: UTF8.self) }
                    .filter { !$0.isEmpty }
            }
            var index = Index(inherits: list("Inherits"))
            for path in list("Directories") where IconTheme.isFolderInside(path) {
                let keys = sections[path] ?? [:]
                // Folders for scale 2 and up hold larger pixels for the same size: not ours.
                guard let size = keys["Size"].flatMap({ Int($0) }), Int(keys["Scale"] ?? "1") ?? 1 == 1 else { continue }
                index.directories.append(
                    Directory(
                        path: path, size: size, scalable: keys["Type"] == "Scalable", maxSize: keys["MaxSize"].flatMap { Int($0) }))
            }
            return index
        }

        private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
            let space = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
            guard let first = bytes.firstIndex(where: { !space($0) }), let last = bytes.lastIndex(where: { !space($0) }) else {
                return []
            }
            return bytes[first...last]
        }
    }
}

extension [IconTheme.Directory] {
    /// Best first: the exact size (drawn for it), a scalable folder that reaches the size, the
    /// nearest larger size (scaled down), then the nearest smaller (scaled up).
    func ranked(for size: Int) -> [IconTheme.Directory] {
        func rank(_ directory: IconTheme.Directory) -> Int {
            if directory.scalable {
                guard let maxSize = directory.maxSize, maxSize < size else { return 1 }
                return 1_000_000 + size - maxSize
            }
            if directory.size == size { return 0 }
            return directory.size > size ? 2 + directory.size - size : 1_000_000 + size - directory.size
        }
        return enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}
