import Glibc
import XToastCore
import XToastSystem
import XToastX11

/// Turns a wall-clock time into an instant with the system's time zone rules (tzdata).
enum WallClock {
    /// Where the time zone rules live; `--tz` names a file below it.
    static let zoneDirectory = "/usr/share/zoneinfo/"

    /// The instant (seconds since 1970) of `time` in `zone` (nil: the local zone). A time of
    /// day alone means its next occurrence; a date and time already past is an error.
    static func instant(of time: Schedule.WallTime, zone: String?, now: Double) throws(OptionError) -> Double {
        if let zone {
            // Only names of files in the zoneinfo tree: "Europe/London", "UTC".
            guard !zone.isEmpty, !zone.hasPrefix("/"), !zone.split(separator: "/").contains(".."),
                access(zoneDirectory + zone, R_OK) == 0
            else { throw OptionError("unknown time zone \"\(zone)\": expected a name like Europe/London or UTC") }
        }
        let instant = withTimeZone(zone) { () -> Double in
            var clock = time_t(now)
            var fields = tm()
            localtime_r(&clock, &fields)
            if let date = time.date {
                fields.tm_year = Int32(date.year - 1900)
                fields.tm_mon = Int32(date.month - 1)
                fields.tm_mday = Int32(date.day)
            }
            fields.tm_hour = Int32(time.hour)
            fields.tm_min = Int32(time.minute)
            fields.tm_sec = Int32(time.second)
            fields.tm_isdst = -1
            var result = mktime(&fields)
            if time.date == nil && Double(result) <= now {
                // 14:00 when it is 15:00 means tomorrow's.
                fields.tm_mday += 1
                fields.tm_isdst = -1
                result = mktime(&fields)
            }
            return Double(result)
        }
        guard instant > now else {
            throw OptionError("the time \(describe(time)) is in the past")
        }
        return instant
    }

    /// Runs `body` with TZ set to `zone`, then restores the environment as it was.
    private static func withTimeZone<T>(_ zone: String?, _ body: () -> T) -> T {
        guard let zone else {
            reloadLocalZone()
            return body()
        }
        let saved = Environment.exactValue("TZ")
        Environment.set("TZ", to: ":" + zone)
        tzset()
        defer {
            if let saved { Environment.set("TZ", to: saved) } else { Environment.unset("TZ") }
            tzset()
        }
        return body()
    }

    /// glibc reads the zone file again only when `$TZ` changes: after a change of
    /// /etc/localtime it must be made to look different once.
    private static func reloadLocalZone() {
        let saved = Environment.exactValue("TZ")
        Environment.set("TZ", to: saved.map { $0 == ":/etc/localtime" ? "/etc/localtime" : ":/etc/localtime" } ?? ":/etc/localtime")
        tzset()
        if let saved { Environment.set("TZ", to: saved) } else { Environment.unset("TZ") }
        tzset()
    }

    private static func describe(_ time: Schedule.WallTime) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        let clock = "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
        guard let date = time.date else { return clock }
        return "\(date.year)-\(two(date.month))-\(two(date.day)) \(clock)"
    }

    /// Seconds since 1970 now.
    static func now() -> Double { Clock.wall() }
}
