import XToastRender
import XToastSystem

extension XDisplay {
    /// Why a display did not open, in one line: what Xlib said, else the system's error from
    /// connecting, else (nothing was tried) that the name is not a display's.
    static func reason(captured: [UInt8], failure: Errno?) -> String? {
        let said = String(decoding: captured, as: UTF8.self)
            .split(whereSeparator: \.isNewline)
            .map { line in
                // Older Xlibs prefix their lines; control characters must not reach a terminal.
                let text = line.hasPrefix("Xlib: ") ? line.dropFirst(6) : line[...]
                let clean = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
                return clean.split(separator: " ").joined(separator: " ")
            }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
        if !said.isEmpty { return said.count > 200 ? String(said.prefix(200)) + "…" : said }
        if let failure { return failure.description }
        return "not a display name ([host]:number[.screen])"
    }
}
