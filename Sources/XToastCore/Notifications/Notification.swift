/// One `Notify` call of the Desktop Notifications Specification (1.2), as an application sent
/// it over D-Bus: read by the notification service (`xtoast --notification-service`) and
/// turned into a toast by `NotificationToast`. Everything in it comes from an untrusted client.
public struct NotificationRequest: Equatable, Sendable {
    public var appName = ""
    /// 0: a new notification; else the id of the one it replaces in place.
    public var replacesID: UInt32 = 0
    /// An icon name or a `file://` URL or path (`app_icon`).
    public var appIcon = ""
    public var summary = ""
    /// The spec's markup subset (`NotificationMarkup`).
    public var body = ""
    /// Pairs of action key and label, as sent (`["default", "", "reply", "Reply"]`).
    public var actions: [String] = []
    public var hints = NotificationHints()
    /// −1: the server's default (the toast's automatic duration); 0: until closed; else ms.
    public var expireTimeout: Int32 = -1

    public init() {}
}

/// A hint's value as it came off the bus, with its D-Bus type: the spec gives every hint a
/// type, and a hint of another type is ignored.
public enum HintValue: Equatable, Sendable {
    case string(String)
    case byte(UInt8)
    case boolean(Bool)
    /// `i`, `u`, `n`, `q`, `x`, `t`: any integer type (clients disagree on which).
    case integer(Int64)
    case double(Double)
    case image(NotificationImage)
    /// Any other type: ignored.
    case other
}

/// The hints xtoast uses, read from `a{sv}`.
public struct NotificationHints: Equatable, Sendable {
    /// 0 low, 1 normal, 2 critical.
    public var urgency: Int?
    public var category: String?
    public var desktopEntry: String?
    public var imagePath: String?
    public var image: NotificationImage?
    /// `value`: a percentage.
    public var value: Int?
    /// `x-dunst-stack-tag`, `x-canonical-private-synchronous`: replace the toast with the same tag.
    public var stackTag: String?
    /// `transient`: kept out of the history (`--no-history`); `resident`: read, with nothing to
    /// change (a toast ends when it is clicked).
    public var transient = false
    public var resident = false
    /// `x-kde-display-appname`: the name to show for the application, in place of `app_name`
    /// (which rules still match: it is the one the application always sends).
    public var displayAppName: String?
    /// `x-kde-origin-name`: where the notification comes from inside the application, such as
    /// the web site that asked a browser for it.
    public var originName: String?
    /// `sound-name` (the freedesktop sound theme's), `sound-file`, and `suppress-sound`.
    public var soundName: String?
    public var soundFile: String?
    public var suppressSound = false
    /// `x-kde-reply-placeholder-text`: what the empty reply entry shows (`inline-reply`).
    public var replyPlaceholder: String?
    /// Hints of a type the spec does not give them, by name: one warning, then ignored.
    public var mistyped: [String] = []

    public init() {}

    /// Adds one hint; a known hint of the wrong type goes to `mistyped`, an unknown one is ignored.
    public mutating func add(_ name: String, _ value: HintValue) {
        switch (name, value) {
        case ("urgency", .byte(let level)): urgency = Int(level)
        case ("urgency", .integer(let level)) where (0...2).contains(level): urgency = Int(level)
        case ("category", .string(let text)): category = text
        case ("desktop-entry", .string(let text)): desktopEntry = text
        case ("image-path", .string(let text)), ("image_path", .string(let text)): imagePath = text
        case ("image-data", .image(let picture)), ("image_data", .image(let picture)), ("icon_data", .image(let picture)):
            // image-data wins over the older names, as the spec orders them.
            if name == "image-data" || image == nil { image = picture }
        case ("value", .integer(let number)): self.value = Int(min(max(number, 0), 100))
        case ("value", .double(let number)) where number.isFinite: self.value = Int(min(max(number.rounded(), 0), 100))
        case ("x-dunst-stack-tag", .string(let text)), ("x-canonical-private-synchronous", .string(let text)):
            if !text.isEmpty { stackTag = text }
        case ("transient", .boolean(let flag)): transient = flag
        case ("transient", .integer(let number)): transient = number != 0
        case ("resident", .boolean(let flag)): resident = flag
        case ("x-kde-display-appname", .string(let text)): displayAppName = text
        case ("x-kde-origin-name", .string(let text)): originName = text
        case ("sound-name", .string(let text)): soundName = text
        case ("sound-file", .string(let text)): soundFile = text
        case ("suppress-sound", .boolean(let flag)): suppressSound = flag
        case ("suppress-sound", .integer(let number)): suppressSound = number != 0
        case ("x-kde-reply-placeholder-text", .string(let text)): replyPlaceholder = text
        case ("urgency", _), ("category", _), ("desktop-entry", _), ("image-path", _), ("image_path", _), ("image-data", _),
            ("image_data", _), ("icon_data", _), ("value", _), ("x-dunst-stack-tag", _), ("x-canonical-private-synchronous", _),
            ("transient", _), ("resident", _), ("x-kde-display-appname", _), ("x-kde-origin-name", _), ("sound-name", _),
            ("sound-file", _), ("suppress-sound", _), ("x-kde-reply-placeholder-text", _):
            if mistyped.count < 16 { mistyped.append(name) }
        default: break
        }
    }
}

/// `NotificationClosed`'s reasons, as the spec numbers them.
public enum NotificationClosedReason: UInt32, Sendable {
    case expired = 1
    case dismissed = 2
    case closedByCall = 3
    case undefined = 4
}
