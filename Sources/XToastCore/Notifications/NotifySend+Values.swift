/// The values of notify-send's options, read as libnotify 0.8 reads them.
extension NotifySend {
    /// GLib's integer option: C's `strtol` with base 0 (leading blanks and a sign, `0x` hex,
    /// a leading 0 octal), the whole text, within a C `int`.
    static func integer(_ text: String, option: String) throws(OptionError) -> Int {
        var rest = Substring(text).drop { $0 == " " || ("\t"..."\r").contains($0) }
        var sign = 1
        if let first = rest.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        var radix = 10
        if rest.lowercased().hasPrefix("0x") && rest.count > 2 {
            radix = 16
            rest = rest.dropFirst(2)
        } else if rest.hasPrefix("0") && rest.count > 1 {
            radix = 8
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty, rest.allSatisfy({ ($0.hexDigitValue ?? radix) < radix }) else {
            throw OptionError("invalid \(option) \"\(text)\": expected a whole number")
        }
        guard let magnitude = Int(rest, radix: radix), Int(Int32.min)...Int(Int32.max) ~= sign * magnitude else {
            throw OptionError("invalid \(option) \"\(text)\": out of range")
        }
        return sign * magnitude
    }

    /// A stack tag as xtoast's `--tag` takes it: one that has no such form (too long, control
    /// characters) is named by a hash of it, so that the same text still replaces in place.
    /// An empty one is no tag.
    static func tag(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        if Ticket.isValidTag(text) { return text }
        // FNV-1a, 64 bits: stable across runs, unlike `hashValue`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "notify-send-tag-" + String(hash, radix: 16)
    }

    /// `-h TYPE:NAME:VALUE`, checked as notify-send checks it.
    struct Hint {
        enum Value { case number(Double), other }
        var name: String
        var text: String
        var value: Value

        static let types = ["int", "double", "string", "byte", "boolean", "variant"]

        init(_ hint: String) throws(OptionError) {
            let parts = hint.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { throw OptionError("invalid hint \"\(hint)\": expected TYPE:NAME:VALUE") }
            let type = parts[0].lowercased()
            (name, text) = (parts[1], parts[2])
            let refused = OptionError("invalid hint value \"\(text)\" for \(name): not of type \(type)")
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            switch type {
            case "int":
                // The leading digits, wrapped to a C int as libnotify's cast does.
                guard !digits.isEmpty else { throw refused }
                let wide = UInt64(digits) ?? .max
                value = .number(Double(Int32(truncatingIfNeeded: wide)))
            case "double":
                guard !digits.isEmpty else { throw refused }
                let number = Double(Self.leadingNumber(text)) ?? Double(digits) ?? 0
                value = .number(number.isNaN ? 0 : number)
            case "byte":
                let byte = text.hasPrefix("-") ? UInt64.max : (UInt64(digits) ?? (digits.isEmpty ? 0 : .max))
                guard byte <= 0xFF else { throw refused }
                value = .number(Double(byte))
            case "string", "boolean": value = .other
            case "variant":
                guard Self.looksLikeVariant(text) else { throw refused }
                value = .other
            default:
                throw OptionError("invalid hint type \"\(parts[0])\": expected int, double, string, byte, boolean or variant")
            }
        }

        /// The longest start of `text` that reads as a decimal number (`strtod`).
        static func leadingNumber(_ text: String) -> Substring {
            var end = text.startIndex
            var index = text.startIndex
            while index < text.endIndex {
                index = text.index(after: index)
                if Double(text[..<index]) != nil { end = index }
            }
            return text[..<end]
        }

        /// GVariant's text form, as far as scripts write it: a number, a quoted string, a
        /// boolean, `nothing`, a typed value (`uint32 5`, `@as []`), a box, array, tuple or
        /// dictionary.
        static func looksLikeVariant(_ text: String) -> Bool {
            let trimmed = text.drop { $0 == " " }
            guard let first = trimmed.first else { return false }
            if first.isNumber || "-+.'\"<[({@".contains(first) { return true }
            let word = trimmed.prefix { $0.isLetter || $0.isNumber }
            let keywords: Set<Substring> = [
                "true", "false", "nothing", "just", "boolean", "byte", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                "handle", "double", "string", "objectpath", "signature", "inf", "nan",
            ]
            return keywords.contains(word)
        }
    }
}
