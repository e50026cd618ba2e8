import CX11
import Glibc
import XToastCore

/// How long the user has been away from the keyboard and pointer, and a wake-up when they come
/// back (issue #14: a toast does not expire while nobody is there to read it). Creating one
/// costs nothing; each call says what it costs.
///
/// The time comes from MIT-SCREEN-SAVER (what screen savers read). The wake-up is an alarm on
/// the SYNC extension's `IDLETIME` system counter, as GNOME's idle monitor sets it: the counter
/// counts milliseconds since the last input, and an alarm on its negative transition through 1
/// fires when input sets it back to 0, so nothing polls while the user is away. A server
/// without SYNC or without that counter gets `false` from `armReturn()`: the session then asks
/// `idleSeconds()` every `Session.idleLookInterval` seconds instead, and decides.
public final class IdleWatch {
    private let display: XDisplay
    /// The screen saver extension's answer, asked once (nil: not asked yet).
    private var hasScreenSaver: Bool?
    /// The SYNC extension's event base and the `IDLETIME` counter, asked once (nil: not asked
    /// yet; a nil counter inside: the server has none).
    private var sync: (eventBase: Int32, counter: XSyncCounter?)?
    /// The armed alarm, 0 when none.
    private var alarm: XSyncAlarm = 0

    public init(display: XDisplay) { self.display = display }

    deinit {
        if alarm != 0 { XSyncDestroyAlarm(display.pointer, alarm) }
    }

    /// Seconds since the last keyboard or pointer input, nil when the server has no
    /// MIT-SCREEN-SAVER. One round trip (two the first time: the extension's presence).
    public func idleSeconds() -> Double? {
        if hasScreenSaver == nil {
            var event: Int32 = 0
            var error: Int32 = 0
            hasScreenSaver = XScreenSaverQueryExtension(display.pointer, &event, &error) != 0
        }
        guard hasScreenSaver == true, let info = XScreenSaverAllocInfo() else { return nil }
        defer { XFree(info) }
        guard XScreenSaverQueryInfo(display.pointer, display.root, info) != 0 else { return nil }
        return Double(info.pointee.idle) / 1000
    }

    /// Arms the wake-up: the next keyboard or pointer input sends an event that `handle(_:)`
    /// recognises, once. False when the server cannot (no SYNC, no `IDLETIME`): poll instead.
    /// No round trip; three the first time (SYNC's presence, its version, the list of system
    /// counters).
    @discardableResult
    public func armReturn() -> Bool {
        guard let counter = idleCounter() else { return false }
        if alarm != 0 { return true }
        var attributes = XSyncAlarmAttributes()
        attributes.trigger.counter = counter
        attributes.trigger.value_type = XSyncAbsolute
        attributes.trigger.test_type = XSyncNegativeTransition
        // From more than 1 ms of idleness to at most 1: input set the counter back to 0.
        XSyncIntToValue(&attributes.trigger.wait_value, 1)
        XSyncIntToValue(&attributes.delta, 0)
        attributes.events = 1
        let mask = UInt(XSyncCACounter | XSyncCAValueType | XSyncCATestType | XSyncCAValue | XSyncCADelta | XSyncCAEvents)
        alarm = XSyncCreateAlarm(display.pointer, mask, &attributes)
        // Sent now, not with the next request: input before it reaches the server is missed.
        XFlush(display.pointer)
        return alarm != 0
    }

    /// Whether `event` says the user is back (the armed alarm fired). The alarm is then
    /// destroyed: it would fire at every keystroke; `armReturn()` arms a new one.
    public func handle(_ event: XEvent) -> Bool {
        guard alarm != 0, let sync, event.type == sync.eventBase + Int32(XSyncAlarmNotify) else { return false }
        let notify = withUnsafePointer(to: event) {
            $0.withMemoryRebound(to: XSyncAlarmNotifyEvent.self, capacity: 1) { $0.pointee }
        }
        guard notify.alarm == alarm else { return false }
        disarm()
        return true
    }

    /// Stops the wake-up, if armed (no round trip).
    public func disarm() {
        guard alarm != 0 else { return }
        XSyncDestroyAlarm(display.pointer, alarm)
        alarm = 0
    }

    /// The `IDLETIME` system counter, asked once.
    private func idleCounter() -> XSyncCounter? {
        if let sync { return sync.counter }
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        guard XSyncQueryExtension(display.pointer, &eventBase, &errorBase) != 0,
            XSyncInitialize(display.pointer, &major, &minor) != 0
        else {
            sync = (0, nil)
            return nil
        }
        var count: Int32 = 0
        var counter: XSyncCounter?
        if let list = XSyncListSystemCounters(display.pointer, &count) {
            // The server's list: bounded by what it sends; names are C strings it terminated.
            for entry in UnsafeBufferPointer(start: list, count: Int(max(count, 0))) {
                if let name = entry.name, strcmp(name, "IDLETIME") == 0 { counter = entry.counter }
            }
            XSyncFreeSystemCounterList(list)
        }
        sync = (eventBase, counter)
        return counter
    }
}
