import ArgumentParser
import XToastCore

/// 5 rather than 5.0, 0.2 as 0.2: numbers as a user types them.
func plain(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}

/// The command line. Values stay strings here and are checked in `Settings`, so that every
/// bad value gets its own one-line message instead of a generic one. Values are taken as they
/// come (`.unconditional`): `--offset -20,0` and `--radius -3` are values, not options.
struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xtoast",
        abstract: "Show a short message (a toast) on an X11 screen, then take it away.",
        discussion: """
            EXAMPLES
              xtoast "Tagged"
              make && xtoast "Built" || xtoast --background '#b00020cc' "Build failed"
              xtoast --position top --duration 5 "Meeting in 5 minutes"
              uptime | xtoast
              xtoast --render-png toast.png "Hello"    # no X server needed

              xtoast --tag volume "Volume 40%"       # replaces the last volume toast
              xtoast --action "Update ready. Install?" && sudo apt upgrade
              xtoast --dismiss-all

            Toasts from several processes show one after another, in the order
            the processes started.

            EXIT STATUS
              0      shown and ended: expired, clicked, replaced or dismissed
              1      runtime error: no display, lost connection, cannot write
              2      with --action: not clicked (expired, dismissed, replaced)
              64     usage error: bad option, value or empty message
              128+N  ended by signal N (SIGTERM: 143, SIGINT: 130)
            """,
        version: "xtoast 0.1.0")

    @Argument(
        help: ArgumentHelp(
            "The text. Several words are joined with spaces; '-', or nothing with a pipe on stdin, reads stdin.", valueName: "message"))
    var message: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How long it stays, fades not counted: SECONDS (1.5, 1500ms), short (2), long (3.5), auto or sticky.", valueName: "time"))
    var duration: String = "auto"

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "top, center, bottom, top-left, top-right, bottom-left or bottom-right (default \(Style.toast.position.rawValue)).",
            valueName: "where"))
    var position: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Move the toast by X,Y logical pixels (x right, y down).", valueName: "x,y"))
    var offset: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("pointer, focus, primary, all, a RandR monitor name, or its index from 0.", valueName: "which"))
    var monitor: String = "pointer"

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Pango font; the size is in logical pixels (default \"\(Style.toast.font)\").", valueName: "font"))
    var font: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Text colour, #rrggbb or #rrggbbaa (default \(Style.toast.foreground)).", valueName: "colour"))
    var foreground: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Box colour, #rrggbb or #rrggbbaa; alpha needs a compositor (default \(Style.toast.background)).", valueName: "colour"))
    var background: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Corner radius, logical pixels (default \(plain(Style.toast.cornerRadius))).", valueName: "px"))
    var radius: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Space around the text, logical pixels (default \(plain(Style.toast.padding))).", valueName: "px"))
    var padding: String?

    @Option(
        name: .customLong("max-width"), parsing: .unconditional,
        help: ArgumentHelp("Widest box before the text wraps, logical pixels (default: a third of the monitor).", valueName: "px"))
    var maxWidth: String?

    @Option(
        name: .customLong("max-lines"), parsing: .unconditional,
        help: ArgumentHelp("Lines shown before the text is ellipsized (default \(Style.toast.maximumLines)).", valueName: "n"))
    var maxLines: String?

    @Option(
        name: .customLong("fade-in"), parsing: .unconditional,
        help: ArgumentHelp("Seconds to fade in, with a compositor (default \(plain(Style.toast.fadeIn))).", valueName: "seconds"))
    var fadeIn: String?

    @Option(
        name: .customLong("fade-out"), parsing: .unconditional,
        help: ArgumentHelp("Seconds to fade out, with a compositor (default \(plain(Style.toast.fadeOut))).", valueName: "seconds"))
    var fadeOut: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Fade curve: linear, ease, ease-in, ease-out, ease-in-out (default) or cubic-bezier(a,b,c,d).", valueName: "curve"))
    var easing: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Device pixels per logical pixel (default: Xft.dpi/96).", valueName: "factor"))
    var scale: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The X display (default: $DISPLAY).", valueName: "name"))
    var display: String?

    @Option(
        name: .customLong("render-png"), parsing: .unconditional,
        help: ArgumentHelp("Draw the toast into a PNG file instead; needs no X server.", valueName: "file"))
    var renderPNG: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("A toast with the same tag, on screen or waiting, is replaced in place instead of queued.", valueName: "name"))
    var tag: String?

    @Flag(help: "Show alongside the toasts on screen, stacked from the edge, instead of waiting for them.")
    var stack = false

    @Flag(help: "A click means yes: exit 0 when clicked, 2 when it expired or was dismissed or replaced.")
    var action = false

    @Flag(
        name: [.customShort("b"), .customLong("detach")],
        help: "Return at once, as soon as the toast is queued; it shows from a detached process.")
    var detach = false

    @Option(
        name: .customLong("in"), parsing: .unconditional,
        help: ArgumentHelp("Show it after a delay: 90s, 25m, 1h30m, 2d.", valueName: "delay"))
    var delay: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Show it at a time: 14:00 (the next one), 2026-12-01T09:00.", valueName: "time"))
    var at: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The time zone of --at, like Europe/London (default: the local one).", valueName: "zone"))
    var tz: String?

    @Flag(
        name: .customLong("cancel-scheduled"),
        help: "Cancel the toasts waiting for their --in/--at time (with --tag: those with that tag) and exit.")
    var cancelScheduled = false

    @Flag(help: "Close the toast on screen (with --tag: every toast with that tag) and exit.")
    var dismiss = false

    @Flag(name: .customLong("dismiss-all"), help: "Close the toast on screen and drop every waiting one, then exit.")
    var dismissAll = false

    @Flag(name: .customLong("print-outcome"), help: "Print how the toast ended: expired, clicked, action, replaced or dismissed.")
    var printOutcome = false
}
