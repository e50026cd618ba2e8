/// The factor between logical and device pixels.
public enum HiDPI {
    /// X's reference resolution: `Xft.dpi: 96` is scale 1.
    public static let referenceDPI = 96.0

    /// The scale from an X resource database string (the root window's `RESOURCE_MANAGER`):
    /// `Xft.dpi` / 96, within 0.5...4; 1 when absent or unreadable.
    public static func scale(resources: String?) -> Double {
        guard let resources else { return 1 }
        for line in resources.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingSpaces
            guard key == "Xft.dpi" || key == "*dpi" else { continue }
            guard let dpi = Double(line[line.index(after: colon)...].trimmingSpaces), dpi.isFinite, dpi > 0 else {
                return 1
            }
            return min(max(dpi / referenceDPI, 0.5), 4)
        }
        return 1
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
