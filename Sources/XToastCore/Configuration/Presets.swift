/// The designs xtoast reproduces, one flag each (`--preset toast|alert|hud`). These, with
/// `Style.toast`, are the only places their numbers are written.
extension Style {
    /// An iOS "FHNotification": centred; bold 15 px white text wrapped at 160 px; rgb(60,60,60)
    /// at 0.8 with a 1 px rgb(128,128,128) border, radius 8; shadow radius 8, offset (0,4),
    /// opacity 1; bouncing in over 0.35 s, holding 0.9 s, growing out over 0.35 s.
    public static let alert: Style = {
        var style = Style.toast
        style.font = "Sans Bold 15"
        style.maximumWidth = 160 + 2 * style.padding
        style.background = Color(rgb255: 60, 60, 60, alpha: 0.8)
        style.borderWidth = 1
        style.borderColor = Color(rgb255: 128, 128, 128)
        style.cornerRadius = 8
        style.shadow = Shadow(radius: 8, offset: Offset(x: 0, y: 4), opacity: 1)
        style.position = .center
        style.animation = .bounce
        style.fadeIn = 0.35
        style.fadeOut = 0.35
        style.defaultDuration = .seconds(0.9)
        return style
    }()

    /// An iOS "HudView": a 96×96 box centred, radius 10, grey 0.3 at 0.8; a checkmark centred
    /// and shifted up by 96/8, 16 px white text shifted down by 96/4; in from alpha 0 and
    /// scale 1.3 along a spring (damping 0.7, initial velocity 0.5) over 0.3 s.
    public static let hud: Style = {
        var style = Style.toast
        style.font = "Sans 16"
        style.background = Color(red: 0.3, green: 0.3, blue: 0.3, alpha: 0.8)
        style.cornerRadius = 10
        style.minimumWidth = 96
        style.minimumHeight = 96
        // Longer text wraps within about two HUDs' width rather than spreading into a band.
        style.maximumWidth = 200
        style.layout = .hud
        style.iconSize = 36
        style.iconStyle = .glyph
        style.defaultIcon = .success
        style.position = .center
        style.animation = .spring
        style.easing = .spring(damping: 0.7, velocity: 0.5)
        style.fadeIn = 0.3
        style.fadeOut = 0.3
        // A HUD answers a key the user pressed: it shows over a film or a game.
        style.fullscreen = .policy(.show)
        // A key's confirmation, like a volume OSD: it goes through a pause.
        style.urgent = true
        return style
    }()

    /// notify-send's `--urgency critical` (as in dunst): stays until clicked, on dunst's dark
    /// red. `low` and `normal` are the toast; a config section of the same name restyles each.
    public static let critical: Style = {
        var style = Style.toast
        style.background = Color(rgb255: 144, 0, 0, alpha: 0.9)
        style.defaultDuration = .sticky
        // What is urgent shows over a fullscreen window, and through a pause.
        style.fullscreen = .policy(.show)
        style.urgent = true
        return style
    }()

    /// notify-send's `--urgency normal` and an application's notification: the toast, holding
    /// 10 s when the notification does not say how long (`expire_timeout` −1, `-t` not given),
    /// as dunst does, where the toast's automatic duration would give a 30-character notification
    /// 2.3 s (`--duration`, or `duration` in a `[normal]` section or a `[rule NAME]`; why 10 s:
    /// docs/notifications.md). A script's own toast keeps the automatic duration.
    public static let normal: Style = {
        var style = Style.toast
        style.defaultDuration = .seconds(10)
        return style
    }()

    /// notify-send's `--urgency low`: the normal notification, dropped rather than shown late
    /// while a fullscreen window covers its monitor (by the time the film ends it is stale; GNOME
    /// shows such notifications no banner while the user is busy).
    public static let low: Style = {
        var style = Style.normal
        style.fullscreen = .policy(.drop)
        return style
    }()

    /// The built-in presets by name.
    public static let presets: [String: Style] = [
        "toast": .toast, "alert": .alert, "hud": .hud, "low": .low, "normal": .normal, "critical": .critical,
    ]
}
