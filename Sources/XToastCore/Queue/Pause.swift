/// Do not disturb, without a daemon (`xtoast --pause [LENGTH]`, `xtoast --resume`): the root
/// window's `_XTOAST_PAUSED` (type `CARDINAL`, format 32, one value), the wall-clock second the
/// pause ends (seconds since 1970, UTC), or 0 for "until `--resume`". The state lives on the X
/// server like the queue: it ends with the X session, works over `ssh -X`, and a timed pause
/// ends by itself with nobody running, since every reader compares the end with its own clock.
public struct Pause: Equatable, Sendable {
    /// When it ends, in seconds since 1970 (UTC); nil: when `--resume` deletes it.
    public var end: Int?

    public init(end: Int?) { self.end = end }

    /// The longest pause `--pause` sets: a year, as `--in`.
    public static let maximumLength = Schedule.maximumDelay

    /// An end further ahead than this comes from garbage or from a clock far off: any client
    /// can write the property, and a toast must never wait for ever because of it.
    public static let maximumAhead = maximumLength + 86_400

    /// The property's value: the end, or 0 for "until resumed".
    public var encoded: [UInt] { [UInt(end ?? 0)] }

    /// A pause of `length` seconds from `now` (wall clock), nil: until resumed.
    public init(length: Double?, from now: Double) {
        end = length.map { Int((now + $0).rounded(.up)) }
    }

    /// What the property says at `now` (wall clock, seconds since 1970); nil: not paused. The
    /// property was read as `CARDINAL`, format 32: nil `values` when it is absent or of another
    /// type or format. Anything but exactly one value, an end that has passed, and an end
    /// further ahead than `maximumAhead` mean not paused.
    public static func reading(_ values: [UInt]?, now: Double) -> Pause? {
        guard let values, values.count == 1 else { return nil }
        let value = values[0]
        if value == 0 { return Pause(end: nil) }
        guard value <= UInt(UInt32.max), Double(value) > now, Double(value) <= now + maximumAhead else { return nil }
        return Pause(end: Int(value))
    }

    /// The pause's values as a toast takes them (`reading`) while applications' notifications
    /// are inhibited (`xtoast --inhibit`, an application's `Inhibit`): an inhibition holds
    /// scripts' toasts too, as a pause until it ends does; a pause of its own, if there is one,
    /// says when to look again.
    public static func values(_ raw: [UInt]?, inhibited: Bool, now: Double) -> [UInt]? {
        guard inhibited, reading(raw, now: now) == nil else { return raw }
        return Pause(end: nil).encoded
    }

    /// The length given after `--pause` (its words, so that `--pause 1h 30m` reads as one):
    /// nil for none (until `--resume`); a usage error for anything but a length like `--in`'s,
    /// more than 0 and at most a year.
    public static func length(words: [String]) throws(OptionError) -> Double? {
        guard !words.isEmpty else { return nil }
        let text = words.joined(separator: " ")
        guard let seconds = Schedule.delay(parsing: text), seconds > 0 else {
            throw OptionError(
                "invalid pause \"\(text)\": expected nothing (until --resume) or a length like 30m, 1h30m or 2d (at most a year)")
        }
        return seconds
    }
}
