import CGio
import XToastCore

/// Reading a `Notify` call's arguments out of GVariants. GDBus has checked the call's signature
/// against the interface already (`susssasa{sv}i`); the values are still anyone's, so every
/// string and list is read up to a bound.
enum VariantReading {
    /// Bytes of a string read at most: a summary or body of megabytes is cut here, before the
    /// toast's own limits.
    static let stringByteLimit = 64 << 10
    /// Actions and hints read at most.
    static let listLimit = 256

    /// The request in `parameters` (a `Notify` call's tuple).
    static func request(_ parameters: OpaquePointer) -> NotificationRequest {
        var request = NotificationRequest()
        request.appName = child(parameters, 0, string)
        request.replacesID = child(parameters, 1) { g_variant_get_uint32($0) }
        request.appIcon = child(parameters, 2, string)
        request.summary = child(parameters, 3, string)
        request.body = child(parameters, 4, string)
        request.actions = child(parameters, 5) { list in
            (0..<min(Int(g_variant_n_children(list)), listLimit)).map { child(list, $0, string) }
        }
        request.hints = child(parameters, 6) { dictionary in
            var hints = NotificationHints()
            for index in 0..<min(Int(g_variant_n_children(dictionary)), listLimit) {
                let (name, value) = child(dictionary, index) { entry in
                    (child(entry, 0, string), child(entry, 1) { boxed in hint(variantContent: boxed) })
                }
                hints.add(name, value)
            }
            return hints
        }
        request.expireTimeout = child(parameters, 7) { g_variant_get_int32($0) }
        return request
    }

    /// The value inside a `v`.
    private static func hint(variantContent boxed: OpaquePointer) -> HintValue {
        guard let value = g_variant_get_variant(boxed) else { return .other }
        defer { g_variant_unref(value) }
        switch String(cString: g_variant_get_type_string(value)) {
        case "s": return .string(string(value))
        case "y": return .byte(g_variant_get_byte(value))
        case "b": return .boolean(g_variant_get_boolean(value) != 0)
        case "i": return .integer(Int64(g_variant_get_int32(value)))
        case "u": return .integer(Int64(g_variant_get_uint32(value)))
        case "n": return .integer(Int64(g_variant_get_int16(value)))
        case "q": return .integer(Int64(g_variant_get_uint16(value)))
        case "x": return .integer(Int64(g_variant_get_int64(value)))
        case "t": return .integer(Int64(clamping: g_variant_get_uint64(value)))
        case "d": return .double(g_variant_get_double(value))
        case "(iiibiiay)": return .image(image(value))
        default: return .other
        }
    }

    /// `(iiibiiay)`, its bytes read up to one more than any valid image has (so that too many
    /// is still seen as too many).
    private static func image(_ value: OpaquePointer) -> NotificationImage {
        let number = { (index: Int) in child(value, index) { g_variant_get_int32($0) } }
        let bytes: [UInt8] = child(value, 6) { array in
            var count = 0
            guard let start = g_variant_get_fixed_array(array, &count, 1) else { return [] }
            let kept = min(count, NotificationImage.maximumBytes + 1)
            return Array(UnsafeRawBufferPointer(start: start, count: kept))
        }
        return NotificationImage(
            width: number(0), height: number(1), rowstride: number(2), hasAlpha: child(value, 3) { g_variant_get_boolean($0) != 0 },
            bitsPerSample: number(4), channels: number(5), bytes: bytes)
    }

    /// The `u` at `index` of a call's parameters (GDBus checked their signature).
    static func uint32(_ parameters: OpaquePointer, at index: Int) -> UInt32 {
        guard let value = g_variant_get_child_value(parameters, gsize(index)) else { return 0 }
        defer { g_variant_unref(value) }
        return g_variant_is_of_type(value, variantType("u")) != 0 ? g_variant_get_uint32(value) : 0
    }

    /// The `au` at `index` of a call's parameters, at most `limit` of its numbers.
    static func uint32s(_ parameters: OpaquePointer, at index: Int, limit: Int) -> [UInt32] {
        guard let value = g_variant_get_child_value(parameters, gsize(index)) else { return [] }
        defer { g_variant_unref(value) }
        guard g_variant_is_of_type(value, variantType("au")) != 0 else { return [] }
        var count: gsize = 0
        guard let numbers = g_variant_get_fixed_array(value, &count, gsize(MemoryLayout<UInt32>.size)) else { return [] }
        return Array(UnsafeBufferPointer(start: numbers.assumingMemoryBound(to: UInt32.self), count: min(Int(count), limit)))
    }

    /// The `s` at `index` of a call's parameters.
    static func string(_ parameters: OpaquePointer, at index: Int) -> String { child(parameters, index, string) }

    /// Child `index` of a container, given to `body` and released after. GDBus checked the
    /// signature, so the child is there; were it not, `body` reads an empty string instead.
    private static func child<T>(_ container: OpaquePointer, _ index: Int, _ body: (OpaquePointer) -> T) -> T {
        guard let value = g_variant_get_child_value(container, gsize(index)) else { return body(g_variant_new_string("")) }
        defer { g_variant_unref(value) }
        return body(value)
    }

    /// A string value, up to `stringByteLimit` bytes (D-Bus strings are valid UTF-8; a cut
    /// through a character shows as U+FFFD).
    private static func string(_ value: OpaquePointer) -> String {
        var length = 0
        guard let text = g_variant_get_string(value, &length) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: min(length, stringByteLimit)), as: UTF8.self)
    }
}
