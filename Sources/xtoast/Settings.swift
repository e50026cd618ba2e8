import XToastCore

/// A usage error: the command line asked for something that cannot be. Exit status 64.
struct UsageError: Error {
    var message: String
}

/// The command line's strings checked and turned into the core's values.
struct Settings {
    var style = Style.toast
    var duration = DisplayDuration.automatic
    var monitor = MonitorChoice.pointer
    var scale: Double?
    var delivery = Delivery.now
    /// For `--at` without `--tz`: works the instant out again in the new local zone.
    var reschedule: (@Sendable () -> Double?)?

    init(_ options: Options) throws(UsageError) {
        guard let duration = DisplayDuration(parsing: options.duration) else {
            throw UsageError(
                message:
                    "invalid duration \"\(options.duration)\": expected seconds (1.5, 1500ms, at most a day), short, long, auto or sticky")
        }
        self.duration = duration
        guard let monitor = MonitorChoice(parsing: options.monitor) else {
            throw UsageError(message: "invalid monitor \"\(options.monitor)\": expected pointer, focus, primary, all, a name or an index")
        }
        self.monitor = monitor
        if let text = options.position {
            guard let position = Position(rawValue: text) else {
                throw UsageError(
                    message: "invalid position \"\(text)\": expected \(Position.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            style.position = position
        }
        if let text = options.offset {
            guard let offset = Offset(parsing: text) else {
                throw UsageError(message: "invalid offset \"\(text)\": expected X,Y in pixels, like 0,-40")
            }
            style.offset = offset
        }
        if let font = options.font {
            guard !font.allSatisfy(\.isWhitespace) else {
                throw UsageError(message: "invalid font \"\(font)\": expected a Pango font like \"Sans 14\"")
            }
            style.font = font
        }
        if let text = options.foreground { style.foreground = try Settings.color(text, "foreground") }
        if let text = options.background { style.background = try Settings.color(text, "background") }
        if let text = options.radius { style.cornerRadius = try Settings.number(text, "radius", 0...1000) }
        if let text = options.padding { style.padding = try Settings.number(text, "padding", 0...1000) }
        if let text = options.maxWidth { style.maximumWidth = try Settings.number(text, "max-width", 24...100_000) }
        if let text = options.maxLines { style.maximumLines = Int(try Settings.number(text, "max-lines", 1...1000, whole: true)) }
        if let text = options.fadeIn { style.fadeIn = try Settings.number(text, "fade-in", 0...60) }
        if let text = options.fadeOut { style.fadeOut = try Settings.number(text, "fade-out", 0...60) }
        if let text = options.easing {
            guard let curve = TimingCurve(parsing: text) else {
                throw UsageError(
                    message:
                        "invalid easing \"\(text)\": expected linear, ease, ease-in, ease-out, ease-in-out or cubic-bezier(x1,y1,x2,y2) with x in 0...1"
                )
            }
            style.easing = curve
        }
        if let text = options.scale { scale = try Settings.number(text, "scale", 0.5...4) }
        if let tag = options.tag, !Ticket.isValidTag(tag) {
            throw UsageError(message: "invalid tag \"\(tag)\": expected 1 to \(Ticket.tagLimit) bytes without control characters")
        }
        let modes = [options.dismiss, options.dismissAll, options.cancelScheduled].filter { $0 }.count
        if modes > 1 {
            throw UsageError(message: "--dismiss, --dismiss-all and --cancel-scheduled cannot be used together")
        }
        delivery = try Settings.delivery(options)
        if let text = options.at, options.tz == nil, let time = Schedule.wallTime(parsing: text) {
            reschedule = { try? WallClock.instant(of: time, zone: nil, now: WallClock.now()) }
        }
    }

    private static func delivery(_ options: Options) throws(UsageError) -> Delivery {
        switch (options.delay, options.at) {
        case (nil, nil):
            if options.tz != nil { throw UsageError(message: "--tz goes with --at") }
            return .now
        case (let text?, nil):
            guard let seconds = Schedule.delay(parsing: text) else {
                throw UsageError(message: "invalid delay \"\(text)\": expected a duration like 90s, 25m, 1h30m or 2d (at most a year)")
            }
            return .after(seconds)
        case (nil, let text?):
            guard let time = Schedule.wallTime(parsing: text) else {
                throw UsageError(message: "invalid time \"\(text)\": expected HH:MM[:SS] or YYYY-MM-DDTHH:MM[:SS]")
            }
            return .at(try WallClock.instant(of: time, zone: options.tz, now: WallClock.now()))
        case (_?, _?):
            throw UsageError(message: "--in and --at cannot be used together")
        }
    }

    private static func color(_ text: String, _ option: String) throws(UsageError) -> Color {
        guard let color = Color(hex: text) else {
            throw UsageError(message: "invalid \(option) colour \"\(text)\": expected #rrggbb or #rrggbbaa")
        }
        return color
    }

    private static func number(_ text: String, _ option: String, _ range: ClosedRange<Double>, whole: Bool = false) throws(UsageError)
        -> Double
    {
        // Double() also reads "nan", "inf" and hex floats: accept only plain decimals.
        let isPlainDecimal = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }
        guard isPlainDecimal, let value = Double(text), range.contains(value), !whole || value == value.rounded() else {
            let kind = whole ? "a whole number" : "a number"
            throw UsageError(
                message: "invalid \(option) \"\(text)\": expected \(kind) from \(plain(range.lowerBound)) to \(plain(range.upperBound))")
        }
        return value
    }

}
