/// One monitor as the X server describes it (a RandR monitor or a Xinerama screen).
public struct Monitor: Equatable, Sendable {
    public var name: String
    public var rect: Rect
    public var isPrimary: Bool
    /// Where toasts go on it: the monitor less its docks and panels (see `WorkArea`).
    public var workArea: Rect

    public init(name: String, rect: Rect, isPrimary: Bool = false, workArea: Rect? = nil) {
        self.name = name
        self.rect = rect
        self.isPrimary = isPrimary
        self.workArea = workArea ?? rect
    }
}

/// Which monitor(s) a toast goes to (`--monitor`).
public enum MonitorChoice: Equatable, Sendable, CustomStringConvertible {
    case pointer, focus, primary, all
    case named(String)
    /// An index into the server's list, from 0, as `xrandr --listmonitors` numbers them.
    case index(Int)

    /// The choices with a word of their own, as `--monitor` takes them.
    public static let keywords: [MonitorChoice] = [.pointer, .focus, .primary, .all]

    public init?(parsing text: String) {
        if let keyword = Self.keywords.first(where: { $0.description == text }) {
            self = keyword
            return
        }
        switch text {
        case "": return nil
        default:
            if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
                guard let n = Int(text) else { return nil }
                self = .index(n)
            } else {
                self = .named(text)
            }
        }
    }

    public var description: String {
        switch self {
        case .pointer: "pointer"
        case .focus: "focus"
        case .primary: "primary"
        case .all: "all"
        case .named(let name): name
        case .index(let n): String(n)
        }
    }
}

/// The named or numbered monitor does not exist on this display.
public struct UnknownMonitorError: Error, Equatable, CustomStringConvertible {
    public var choice: MonitorChoice
    public var available: [String]

    public init(choice: MonitorChoice, available: [String]) {
        self.choice = choice
        self.available = available
    }

    /// The monitors there are, numbered, so that the user can pick one.
    public var description: String {
        "no monitor \"\(choice)\" (monitors: \(available.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", ")))"
    }

    /// Where the toast goes instead, and the warning that says so.
    public struct Fallback: Equatable, Sendable {
        public var monitor: MonitorChoice
        public var warning: String
    }

    /// What a toast does when its monitor is not there; `origin`: where the choice was read (a
    /// file, the resources; nil: the command line). A monitor named in a file may be unplugged
    /// today (a laptop off its dock), and a file or the resources must not silence toasts: the
    /// toast goes on the default monitor, with a warning. Asked for in this call, it is an error
    /// (nil).
    public func fallback(from origin: String?) -> Fallback? {
        guard let origin else { return nil }
        let monitor = Configuration().monitor
        return Fallback(monitor: monitor, warning: "\(origin): monitor: \(description); showing it on the default monitor, \(monitor)")
    }
}

extension MonitorChoice {
    /// The monitors a toast appears on, given what the server reports and where the pointer and
    /// the focused window are (nil when unknown). Never empty unless `monitors` is.
    public func select(from monitors: [Monitor], pointer: Point?, focus: Rect?) throws(UnknownMonitorError) -> [Monitor] {
        guard !monitors.isEmpty else { return [] }
        switch self {
        case .pointer:
            return [Self.monitor(at: pointer ?? monitors[0].rect.center, in: monitors)]
        case .focus:
            guard let focus, let best = monitors.max(by: { $0.rect.overlapArea(with: focus) < $1.rect.overlapArea(with: focus) }),
                best.rect.overlapArea(with: focus) > 0
            else { return try MonitorChoice.pointer.select(from: monitors, pointer: pointer, focus: nil) }
            return [best]
        case .primary:
            return [monitors.first(where: \.isPrimary) ?? monitors[0]]
        case .all:
            // Mirrored outputs report the same rectangle; one toast each is enough.
            var distinct: [Monitor] = []
            for monitor in monitors where !distinct.contains(where: { $0.rect == monitor.rect }) {
                distinct.append(monitor)
            }
            return distinct
        case .named(let name):
            guard let monitor = monitors.first(where: { $0.name == name }) else {
                throw UnknownMonitorError(choice: self, available: monitors.map(\.name))
            }
            return [monitor]
        case .index(let n):
            guard n < monitors.count else { throw UnknownMonitorError(choice: self, available: monitors.map(\.name)) }
            return [monitors[n]]
        }
    }

    /// The smallest monitor containing the point (a whole-screen monitor may overlap real ones),
    /// or the nearest when the point is in a gap between monitors.
    static func monitor(at point: Point, in monitors: [Monitor]) -> Monitor {
        let containing = monitors.filter { $0.rect.contains(point) }
        if let smallest = containing.min(by: { $0.rect.width * $0.rect.height < $1.rect.width * $1.rect.height }) {
            return smallest
        }
        return monitors.min(by: { $0.rect.squaredDistance(to: point) < $1.rect.squaredDistance(to: point) })!
    }
}
