/// When a toast is shown.
public enum Delivery: Equatable, Sendable {
    case now
    /// After this many seconds, counted on a clock that also runs while the machine sleeps.
    case after(Double)
    /// At this instant, in seconds since 1970 (UTC), whatever happens to the clock meanwhile.
    case at(Double)
}

/// When a toast is to be delivered (`--in`, `--at`): the parsing half. Turning a wall-clock
/// time into an instant needs the system's time zone rules and lives in the command.
public enum Schedule {
    /// The longest delay `--in` takes: a year.
    public static let maximumDelay = 366.0 * 86_400

    /// Parses a delay: `90s`, `25m`, `1h30m`, `1h 30m`, `1500ms`, `2d`, or plain seconds (`45`).
    public static func delay(parsing text: String) -> Double? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]
        var rest = Substring(text.filter { $0 != " " })
        guard !rest.isEmpty else { return nil }
        if let plain = plainNumber(rest) { return plain <= maximumDelay ? plain : nil }
        var total = 0.0
        var lastUnit = Double.infinity
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard let value = plainNumber(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            // Units go from large to small, each once: "30m1h" and "1m1m" are typos.
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }), unit.seconds < lastUnit else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            lastUnit = unit.seconds
            total += value * unit.seconds
        }
        return total <= maximumDelay ? total : nil
    }

    /// A duration as `delay(parsing:)` reads it: whole days, hours, minutes and seconds, larger
    /// first (`1d`, `1h30m`, `0s`).
    public static func text(seconds: Double) -> String {
        var left = Int(seconds.rounded())
        var text = ""
        for (suffix, unit) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where left >= unit {
            text += "\(left / unit)\(suffix)"
            left %= unit
        }
        return text.isEmpty ? "0s" : text
    }

    /// A wall-clock moment as written: a time of day, with or without a date.
    public struct WallTime: Equatable, Sendable {
        public var date: (year: Int, month: Int, day: Int)?
        public var hour: Int
        public var minute: Int
        public var second: Int

        public init(date: (year: Int, month: Int, day: Int)?, hour: Int, minute: Int, second: Int) {
            self.date = date
            self.hour = hour
            self.minute = minute
            self.second = second
        }

        public static func == (a: WallTime, b: WallTime) -> Bool {
            a.date?.year == b.date?.year && a.date?.month == b.date?.month && a.date?.day == b.date?.day
                && a.hour == b.hour && a.minute == b.minute && a.second == b.second
        }
    }

    /// Parses `14:00`, `14:00:30`, `2026-12-01T09:00`, `2026-12-01 09:00:30` (ISO 8601 style).
    public static func wallTime(parsing text: String) -> WallTime? {
        let parts = text.split(whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 1 || parts.count == 2 else { return nil }
        var date: (Int, Int, Int)?
        if parts.count == 2 {
            let fields = parts[0].split(separator: "-", omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
                let y = integer(fields[0]), let m = integer(fields[1]), let d = integer(fields[2]),
                (1970...9999).contains(y), (1...12).contains(m), (1...daysIn(month: m, year: y)).contains(d)
            else { return nil }
            date = (y, m, d)
        }
        let clock = parts.last!.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let h = integer(clock[0]), let min = integer(clock[1]), (0...23).contains(h), (0...59).contains(min)
        else { return nil }
        let sec = clock.count == 3 ? integer(clock[2]) : 0
        guard let sec, (0...59).contains(sec) else { return nil }
        return WallTime(date: date, hour: h, minute: min, second: sec)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func integer(_ text: Substring) -> Int? {
        text.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(text) : nil
    }

    private static func plainNumber(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(text),
            value.isFinite
        else { return nil }
        return value
    }
}
