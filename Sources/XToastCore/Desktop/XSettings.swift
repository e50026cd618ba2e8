/// Reads the XSETTINGS protocol's `_XSETTINGS_SETTINGS` property, which a settings manager
/// (a desktop's, or xsettingsd) publishes: here only for `Net/EnableAnimations`, the user's
/// "reduce motion" wish. Any client can own the selection and write anything, so every length
/// is checked and a malformed property reads as no settings at all.
public enum XSettings {
    public enum Value: Equatable, Sendable {
        case integer(Int32)
        case string(String)
        case color(UInt16, UInt16, UInt16, UInt16)
    }

    /// The settings in a property value, by name; empty when malformed.
    public static func parse(_ bytes: [UInt8]) -> [String: Value] {
        guard bytes.count >= 12 else { return [:] }
        let bigEndian: Bool
        switch bytes[0] {
        case 0: bigEndian = false
        case 1: bigEndian = true
        default: return [:]
        }
        var offset = 0
        func card(_ size: Int) -> UInt32? {
            guard offset + size <= bytes.count else { return nil }
            var value: UInt32 = 0
            for i in 0..<size {
                let byte = UInt32(bytes[offset + (bigEndian ? i : size - 1 - i)])
                value = value << 8 | byte
            }
            offset += size
            return value
        }
        func padded(_ length: Int) -> Int { (length + 3) & ~3 }
        offset = 8
        guard let count = card(4), count <= 10_000 else { return [:] }
        var settings: [String: Value] = [:]
        for _ in 0..<count {
            guard let type = card(1), card(1) != nil, let nameLength = card(2).map(Int.init) else { return [:] }
            guard offset + padded(nameLength) <= bytes.count,
                let name = String(validating: bytes[offset..<(offset + nameLength)], as: UTF8.self)
            else { return [:] }
            offset += padded(nameLength)
            guard card(4) != nil else { return [:] }  // last-change serial
            switch type {
            case 0:
                guard let raw = card(4) else { return [:] }
                settings[name] = .integer(Int32(bitPattern: raw))
            case 1:
                guard let length = card(4).map(Int.init), length <= bytes.count, offset + padded(length) <= bytes.count else { return [:] }
                settings[name] = .string(String(decoding: bytes[offset..<(offset + length)], as: UTF8.self))
                offset += padded(length)
            case 2:
                guard let r = card(2), let g = card(2), let b = card(2), let a = card(2) else { return [:] }
                settings[name] = .color(UInt16(r), UInt16(g), UInt16(b), UInt16(a))
            default:
                return [:]
            }
        }
        return settings
    }

    /// The user's icon theme (`Net/IconThemeName`), if set to a plain name.
    public static func iconTheme(_ bytes: [UInt8]) -> String? {
        guard case .string(let name) = parse(bytes)["Net/IconThemeName"], !name.isEmpty,
            !name.contains("/"), name != ".", name != ".."
        else { return nil }
        return name
    }

    /// Whether the settings ask for no animations (`Net/EnableAnimations` = 0).
    public static func reducesMotion(_ bytes: [UInt8]) -> Bool {
        parse(bytes)["Net/EnableAnimations"] == .integer(0)
    }
}
