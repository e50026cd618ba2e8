import CX11
import Glibc
import XToastCore

/// Whether a locker, a blanker or the screen saver covers the toast's monitors (issues #22, #28),
/// and a wake-up when that may have changed, without polling and without a grab.
///
/// The facts travel with the start-up batch (`PendingPanels` asks them with the docks' struts,
/// MIT-SCREEN-SAVER's state and who holds the input with them); `Coverage` decides. While a
/// toast waits for the unlock, the windows that may lock its monitors are watched (their unmap,
/// destruction or move comes as StructureNotify), and so are the root's children going (a grab's
/// end comes as no event: its holder's window going does) and the screen saver
/// (ScreenSaverNotify): any of them makes the session look again. A toast on screen watches the
/// screen saver from its first frame; a locker mapped over it comes with the root's
/// SubstructureNotify (`WindowSet`), unasked.
final class LockWatch {
    private let display: XDisplay
    /// The windows that covered the toast's monitors at the last look.
    private var covering: Set<UInt32> = []
    /// Whether events are asked for (after `watch()`).
    private var watching = false
    /// Whether the last look found the screen locked: the root's children are listened to then.
    private var locked = false
    /// MIT-SCREEN-SAVER's event base, once its events are asked for (nil: not, or no extension).
    private var screenSaverEvent: Int32?

    init(display: XDisplay) { self.display = display }

    /// Asks whether the server has MIT-SCREEN-SAVER without waiting: the answer comes with the
    /// atoms'. Called as the connection opens.
    static func prefetchExtension(_ connection: OpaquePointer) { xtoast_screensaver_prefetch(connection) }

    /// Asks for the screen saver's state without waiting (0: no extension, nothing asked).
    static func askScreenSaver(_ display: XDisplay) -> UInt32 {
        xtoast_screensaver_ask(display.connection, UInt32(truncatingIfNeeded: display.root))
    }

    /// The state asked by `askScreenSaver`: 0 off, 1 on, 3 disabled, -1 when it could not be read.
    static func screenSaverState(_ display: XDisplay, _ question: UInt32) -> Int32 {
        xtoast_screensaver_state(display.connection, question)
    }

    /// Whether any of `monitors` is locked, as `panels` saw the screen, with the shapes of the
    /// windows that may lock them asked now (one round trip, only while another client holds
    /// the input and such a window is up); once watching, those windows are watched too.
    func state(_ monitors: [Rect], panels: Panels) -> LockState {
        var panels = panels
        let candidates = panels.lockCandidates(on: monitors)
        if panels.input.bothHeld && !candidates.isEmpty {
            let shapes = display.shapes(
                display.askShapes(of: candidates.map { panels.windows[$0].id }), sizes: candidates.map { panels.windows[$0].frame.size })
            for (index, shape) in zip(candidates, shapes) { panels.windows[index].shape = shape }
        }
        covering = Set(candidates.map { panels.windows[$0].id })
        let state = panels.lock(monitors)
        locked = state == .locked
        if watching { select(covering) }
        return state
    }

    /// Asks for the events that `affects(_:)` recognises: the covering windows' structure, and
    /// the screen saver's changes. One round trip the first time (the screen saver's event base,
    /// which also lets Xlib read its events).
    func watch() {
        if !watching {
            watching = true
            var eventBase: Int32 = 0
            var errorBase: Int32 = 0
            if XScreenSaverQueryExtension(display.pointer, &eventBase, &errorBase) != 0 {
                screenSaverEvent = eventBase
                XScreenSaverSelectInput(display.pointer, display.root, UInt(ScreenSaverNotifyMask))
            }
        }
        select(covering)
    }

    /// Whether `event` may have ended the lock: a covering window unmapped, destroyed or moved,
    /// or the screen saver turned off (or on: looked at all the same).
    func affects(_ event: XEvent) -> Bool {
        guard watching else { return false }
        if let screenSaverEvent, event.type == screenSaverEvent + Int32(ScreenSaverNotify) { return true }
        switch event.type {
        case UnmapNotify: return isCovering(event.xunmap.window) || (locked && event.xunmap.event == display.root)
        case DestroyNotify: return isCovering(event.xdestroywindow.window) || (locked && event.xdestroywindow.event == display.root)
        case ConfigureNotify: return isCovering(event.xconfigure.window)
        case ReparentNotify: return isCovering(event.xreparent.window)
        default: return false
        }
    }

    private func isCovering(_ window: Window) -> Bool {
        window <= UInt(UInt32.max) && covering.contains(UInt32(window))
    }

    /// StructureNotify on each window, through Xlib (nothing else is in flight on XCB then), and
    /// the root's children's unmaps and ends while locked. A window gone by then causes a
    /// protocol error, which `XDisplay` collects.
    private func select(_ windows: Set<UInt32>) {
        for window in windows { XSelectInput(display.pointer, Window(window), StructureNotifyMask) }
        display.listenOnRoot(locked ? SubstructureNotifyMask : 0, as: .lock)
    }
}
