import Glibc
import XToastCore
import XToastRender
import XToastService
import XToastSystem
import XToastX11

/// `--center`: the interpreter of `Center`. It reads the stores, opens the window, and then
/// only waits (`poll` on the X connection, the store's folder and a minute's timer for the
/// ages), hands what came to the centre and carries out what it answers. Acting on an
/// application's notification goes through the notification service (`CenterCall`), which the
/// bus starts if it is gone: the centre works whether or not it runs.
enum CenterMode {
    static func run(_ settings: Configuration, display: XDisplay, iconTheme: String?) throws(CommandError) -> Int32 {
        // One key opens it and closes it.
        if CenterWindow.closeOpenOne(on: display) { return ExitStatus.success }
        let store = KeptStore()
        let folder: FolderWatch
        let timer: WallTimer
        do throws(SystemFailure) {
            // Watched before the store is read: nothing written meanwhile is missed.
            folder = try FolderWatch(store.folder, ancestors: 2)
            timer = try WallTimer()
        } catch {
            throw .failure(error.description)
        }
        let monitors = display.monitors(named: false)
        let area =
            ((try? MonitorChoice.pointer.select(from: monitors, pointer: display.pointerPosition(), focus: nil)) ?? []).first?.workArea
            ?? Rect(x: 0, y: 0, width: display.screenSize.width, height: display.screenSize.height)
        let scale = settings.scale ?? HiDPI.scale(resources: display.resourceString)
        let size = CenterPainter.size(in: area, scale: scale)
        let painter = CenterPainter(style: settings.style, scale: scale, size: size, iconTheme: iconTheme)
        // What was unread as it opened stays marked so while it is open (and what comes).
        let readUpTo = store.readUpTo()
        // The newest first, at once; the rest of a long store after the first frame.
        var (entries, ids, more) = read(store, readUpTo: readUpTo, first: firstFrameEntries)
        var center = Center(entries: entries, metrics: painter.metrics, paused: display.pause(now: Clock.wall()) != nil)
        let window: CenterWindow
        do throws(X11Error) {
            window = try CenterWindow(display: display, painter: painter, origin: CenterPainter.origin(in: area, size: size, scale: scale))
        } catch {
            throw .failure(error.description)
        }
        guard window.open() else { throw .failure("cannot take the keyboard: another program holds it") }
        // Read once the root is listened to (`open`): a change after it comes as an input.
        _ = center.handle(.inhibited(window.inhibited()))
        window.draw(center, now: Int(Clock.wall()))
        if more {
            (entries, ids, _) = read(store, readUpTo: readUpTo)
            if !center.handle(.reloaded(entries)).isEmpty { window.draw(center, now: Int(Clock.wall())) }
        }
        markRead(ids, in: store)
        let interpreter = Interpreter(window: window, store: store)
        while true {
            var draw = false
            for input in window.takeInputs(center) {
                switch input {
                case .expose: draw = true
                case .closeAsked: return ExitStatus.success
                case .pauseChanged, .inhibitedChanged, .center:
                    for effect in interpreter.event(for: input).map({ center.handle($0) }) ?? [] {
                        draw = interpreter.carryOut(effect) || draw
                    }
                }
                if center.isClosed { return ExitStatus.success }
            }
            if draw { window.draw(center, now: Int(Clock.wall())) }
            guard !window.hasInputs else { continue }
            // The ages change by the minute.
            timer.arm(at: (Clock.wall() / 60).rounded(.down) * 60 + 60)
            let ready: [Int16]
            do throws(Errno) {
                ready = try display.idle { () throws(Errno) in
                    try Descriptor.waitForAny([
                        (display.fileDescriptor, Int16(POLLIN)), (folder.descriptor, Int16(POLLIN)), (timer.descriptor, Int16(POLLIN)),
                    ])
                }
            } catch {
                throw .failure("cannot wait for events: \(error)")
            }
            if ready[2] != 0 {
                timer.acknowledge()
                window.draw(center, now: Int(Clock.wall()))
            }
            if ready[1] != 0 && folder.changed() {
                let (entries, ids, _) = read(store, readUpTo: readUpTo)
                if !center.handle(.reloaded(entries)).isEmpty { window.draw(center, now: Int(Clock.wall())) }
                // Seen as they come, while the centre is open.
                markRead(ids, in: store)
            }
        }
    }

    /// Kept notifications the first frame shows at most: a screenful and more, read in a few
    /// milliseconds however many the store holds (10,000 take some 400 ms to read).
    static let firstFrameEntries = 200

    /// What the centre lists now (the newest `first` kept notifications, nil: all of them), the
    /// kept ones' ids, and whether the store holds more.
    private static func read(_ store: KeptStore, readUpTo: UInt32, first: Int? = nil) -> ([CenterEntry], [UInt32], Bool) {
        let (kept, more) = first.map { store.newest($0) } ?? (store.all(), false)
        let history = (try? HistoryFile.read()).map(HistoryStore.newestFirst) ?? []
        let entries = CenterEntry.entries(kept: kept, history: history, dismissed: store.dismissedToasts(), readUpTo: readUpTo)
        return (entries, kept.map(\.id), more)
    }

    /// The centre showed `ids`: `--watch`'s unread count goes down.
    private static func markRead(_ ids: [UInt32], in store: KeptStore) {
        guard let id = KeptNotifications.readMarker(after: ids, marker: store.readUpTo()) else { return }
        do throws(SystemFailure) { try store.markRead(upTo: id) } catch { warn("cannot mark the kept notifications read: \(error)") }
    }

    /// Carries out the centre's effects.
    private struct Interpreter {
        let window: CenterWindow
        let store: KeptStore

        /// The centre's event for what the window heard (the pause, or who holds notifications,
        /// read again); nil for what is the loop's own.
        func event(for input: CenterWindow.Input) -> Center.Event? {
            switch input {
            case .pauseChanged: .paused(window.display.pause(now: Clock.wall()) != nil)
            case .inhibitedChanged: .inhibited(window.inhibited())
            case .center(let event): event
            case .expose, .closeAsked: nil
            }
        }

        /// Carries out `effect`; whether the window must be drawn again.
        func carryOut(_ effect: Center.Effect) -> Bool {
            switch effect {
            case .redraw: return true
            case .close: window.close()
            case .setPause(let on): window.display.setPause(on ? Pause(end: nil) : nil)
            case .press(let id, let label):
                // Out of the way first: the application's window may take the focus.
                window.close()
                do throws(CenterCall.Failure) {
                    try CenterCall.send(.press(label: label, clickTime: window.lastEventTime), id: id)
                } catch {
                    warn(error.message)
                }
            case .dismiss(let sources):
                dismiss(sources)
            }
            return false
        }

        private func dismiss(_ sources: [CenterEntry.Source]) {
            var ids: [UInt32] = []
            var keys: [String] = []
            for source in sources {
                switch source {
                case .notification(let id): ids.append(id)
                case .toast(let key): keys.append(key)
                }
            }
            do throws(CenterCall.Failure) { try CenterCall.dismiss(ids) } catch { warn(error.message) }
            guard !keys.isEmpty else { return }
            let history = (try? HistoryFile.read()).map(HistoryStore.newestFirst) ?? []
            do throws(SystemFailure) {
                try store.dismissToasts(keys, current: Set(history.map(CenterEntry.key(of:))))
            } catch {
                warn("cannot dismiss the toasts from the centre: \(error)")
            }
        }
    }
}
