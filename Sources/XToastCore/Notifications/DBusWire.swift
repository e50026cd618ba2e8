/// The few pieces of the D-Bus wire protocol xtoast speaks to ask whether a screen reader runs
/// and to hand it a message: method calls with string arguments out, replies carrying a boolean
/// (or nothing) in. Written by hand rather than with libdbus: a method call is a few dozen bytes,
/// and libdbus would bring a library load and waits (25 s for a reply, unbounded for the
/// authentication) that xtoast could not bound.
public enum DBusWire {
    /// A message larger than this is not for us (replies here are tens of bytes; the bus's
    /// `NameAcquired` signal is about 100): reading stops there, whatever a peer claims.
    public static let messageLimit = 1 << 16

    /// D-Bus message types.
    public enum Kind: UInt8, Sendable {
        case methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    /// Header flags: no reply wanted; do not start (activate) a service that is not running.
    public static let noReplyExpected: UInt8 = 0x1
    public static let noAutoStart: UInt8 = 0x2

    /// A method call, marshalled little-endian: `arguments` are strings (signature `s…`).
    public static func methodCall(
        serial: UInt32, destination: String, path: String, interface: String, member: String, arguments: [String] = [],
        flags: UInt8 = 0
    ) -> [UInt8] {
        var body = Writer()
        for argument in arguments { body.string(argument) }
        var fields = Writer()
        func field(_ code: UInt8, _ signature: String, _ write: (inout Writer) -> Void) {
            fields.align(8)
            fields.byte(code)
            fields.signature(signature)
            write(&fields)
        }
        field(1, "o") { $0.string(path) }
        field(6, "s") { $0.string(destination) }
        field(2, "s") { $0.string(interface) }
        field(3, "s") { $0.string(member) }
        if !arguments.isEmpty { field(8, "g") { $0.signature(String(repeating: "s", count: arguments.count)) } }

        var message = Writer()
        message.bytes += [UInt8(ascii: "l"), Kind.methodCall.rawValue, flags, 1]
        message.uint32(UInt32(body.bytes.count))
        message.uint32(serial)
        // The fields are an array of structs: its length counts from the first struct, which
        // starts 8-aligned at offset 16 as the fields were written (from offset 0).
        message.uint32(UInt32(fields.bytes.count))
        message.bytes += fields.bytes
        message.align(8)
        return message.bytes + body.bytes
    }

    /// The bus's own methods (`Hello`, which must come first, and `NameHasOwner`).
    public static func busCall(serial: UInt32, member: String, arguments: [String] = []) -> [UInt8] {
        methodCall(
            serial: serial, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: member, arguments: arguments)
    }

    /// The first bytes a client sends: a NUL, then `AUTH EXTERNAL` with its uid, in hex of the
    /// decimal digits (uid 1000 is "31303030").
    public static func authenticationRequest(uid: UInt32) -> [UInt8] {
        let hex = String(uid).utf8.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xf)]], as: UTF8.self)
        }
        return [0] + Array("AUTH EXTERNAL \(hex.joined())\r\n".utf8)
    }

    /// Sent once the server said `OK <guid>`; messages follow.
    public static let begin = Array("BEGIN\r\n".utf8)

    /// One message received: what a client needs to match a reply and read a boolean from it.
    public struct Message: Equatable, Sendable {
        public var kind: Kind
        public var serial: UInt32
        public var replySerial: UInt32?
        public var errorName: String?
        public var signature: String
        public var body: [UInt8]
        public var bigEndian: Bool

        /// The body's boolean, as a method returns it (`b`) or `Properties.Get` does (`v` holding
        /// `b`); nil for anything else.
        public var boolean: Bool? {
            var reader = Reader(bytes: body, bigEndian: bigEndian)
            switch signature {
            case "b":
                break
            case "v":
                guard reader.signature() == "b" else { return nil }
            default:
                return nil
            }
            guard let value = reader.uint32(), value <= 1 else { return nil }
            return value == 1
        }
    }

    public enum ParseError: Error, Equatable {
        /// Larger than `messageLimit`, or not D-Bus at all: the connection is to be dropped.
        case malformed
    }

    /// The first complete message in `buffer` and how many bytes it took; nil when more bytes are
    /// needed. Lengths come from the peer: each is checked against the limit before use.
    public static func parse(_ buffer: ArraySlice<UInt8>) throws(ParseError) -> (Message, consumed: Int)? {
        guard buffer.count >= 16 else { return nil }
        let start = buffer.startIndex
        let bigEndian: Bool
        switch buffer[start] {
        case UInt8(ascii: "l"): bigEndian = false
        case UInt8(ascii: "B"): bigEndian = true
        default: throw .malformed
        }
        var head = Reader(bytes: Array(buffer.prefix(16)), bigEndian: bigEndian)
        head.offset = 4
        guard let kindByte = buffer.dropFirst(1).first, let kind = Kind(rawValue: kindByte), buffer[start + 3] == 1,
            let bodyLength = head.uint32(), let serial = head.uint32(), let fieldsLength = head.uint32(),
            bodyLength <= messageLimit, fieldsLength <= messageLimit
        else { throw .malformed }
        let headerEnd = (16 + Int(fieldsLength) + 7) & ~7
        let total = headerEnd + Int(bodyLength)
        guard total <= messageLimit else { throw .malformed }
        guard buffer.count >= total else { return nil }
        let bytes = Array(buffer.prefix(total))

        var message = Message(kind: kind, serial: serial, signature: "", body: Array(bytes[headerEnd...]), bigEndian: bigEndian)
        var fields = Reader(bytes: Array(bytes.prefix(16 + Int(fieldsLength))), bigEndian: bigEndian)
        fields.offset = 16
        while fields.offset < fields.bytes.count {
            guard fields.align(8), let code = fields.byte(), let type = fields.signature(), type.count == 1 else { throw .malformed }
            switch type {
            case "u":
                guard let value = fields.uint32() else { throw .malformed }
                if code == 5 { message.replySerial = value }
            case "s", "o":
                guard let value = fields.string() else { throw .malformed }
                if code == 4 { message.errorName = value }
            case "g":
                guard let value = fields.signature() else { throw .malformed }
                if code == 8 { message.signature = value }
            default:
                throw .malformed
            }
        }
        return (message, total)
    }

    /// Marshals values at their natural alignment, counted from the start of `bytes`.
    struct Writer {
        var bytes: [UInt8] = []

        mutating func align(_ boundary: Int) {
            while bytes.count % boundary != 0 { bytes.append(0) }
        }
        mutating func byte(_ value: UInt8) { bytes.append(value) }
        mutating func uint32(_ value: UInt32) {
            align(4)
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        mutating func string(_ value: String) {
            uint32(UInt32(value.utf8.count))
            bytes += value.utf8
            bytes.append(0)
        }
        mutating func signature(_ value: String) {
            bytes.append(UInt8(value.utf8.count))
            bytes += value.utf8
            bytes.append(0)
        }
    }

    /// Reads values at their alignment; nil past the end or for a value that is not what the
    /// format says (a missing NUL, text that is not UTF-8).
    struct Reader {
        let bytes: [UInt8]
        let bigEndian: Bool
        var offset = 0

        init(bytes: [UInt8], bigEndian: Bool) {
            self.bytes = bytes
            self.bigEndian = bigEndian
        }

        mutating func align(_ boundary: Int) -> Bool {
            offset = (offset + boundary - 1) / boundary * boundary
            return offset <= bytes.count
        }
        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }
        mutating func uint32() -> UInt32? {
            guard align(4), offset + 4 <= bytes.count else { return nil }
            let four = bytes[offset..<offset + 4].map(UInt32.init)
            offset += 4
            return bigEndian
                ? four[0] << 24 | four[1] << 16 | four[2] << 8 | four[3] : four[3] << 24 | four[2] << 16 | four[1] << 8 | four[0]
        }
        mutating func string() -> String? {
            guard let length = uint32() else { return nil }
            return text(length: Int(length))
        }
        mutating func signature() -> String? {
            guard let length = byte() else { return nil }
            return text(length: Int(length))
        }
        private mutating func text(length: Int) -> String? {
            guard length <= bytes.count - offset - 1, bytes[offset + length] == 0 else { return nil }
            defer { offset += length + 1 }
            return String(validating: bytes[offset..<offset + length], as: UTF8.self)
        }
    }
}

/// A unix socket a D-Bus address names: a file, or a name in Linux's abstract namespace.
public enum UnixSocketAddress: Equatable, Sendable {
    case path(String)
    case abstract(String)

    /// The unix sockets in a D-Bus address (`unix:path=/run/user/1000/bus`, or several joined by
    /// `;`, values %-escaped), in order; other transports (tcp, launchd, autolaunch) are left out.
    public static func candidates(inDBusAddress address: String) -> [UnixSocketAddress] {
        address.split(separator: ";").prefix(8).compactMap { entry -> UnixSocketAddress? in
            guard entry.hasPrefix("unix:") else { return nil }
            var path: String?
            var abstract: String?
            for pair in entry.dropFirst(5).split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = unescape(parts[1]) else { return nil }
                switch parts[0] {
                case "path": path = value
                case "abstract": abstract = value
                default: break
                }
            }
            if let path, !path.isEmpty { return .path(path) }
            if let abstract, !abstract.isEmpty { return .abstract(abstract) }
            return nil
        }
    }

    /// `%2f` and the like decoded; nil for a bad escape or bytes that are not UTF-8.
    static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next(), let low = utf8.next(), let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
