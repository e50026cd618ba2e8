import Glibc
import XToastCore
import XToastService
import XToastSystem
import XToastX11

/// `--watch`, for status bars: the interpreter of `Watch`. It sleeps in `poll` on the X
/// connection, the store's folder (inotify) and a timer for a timed pause's end, reads again
/// only what woke it, and prints what the machine answers; nothing is polled, so a bar that runs
/// it for days costs nothing while nothing changes.
extension Control {
    static func watch(_ display: XDisplay) throws(CommandError) -> Int32 {
        let store = KeptStore()
        let folder: FolderWatch
        let timer: WallTimer
        do throws(SystemFailure) {
            // The store's folder and the two above it, `$XDG_RUNTIME_DIR/xtoast` and
            // `$XDG_RUNTIME_DIR`: the first notification kept makes the folders. Watched before
            // the store is read, so that nothing written meanwhile is missed.
            folder = try FolderWatch(store.folder, ancestors: 2)
            timer = try WallTimer()
        } catch {
            throw .failure(error.description)
        }
        let root = StatusWatch(display)
        var watch = Watch()
        var events: [Watch.Event] = [.kept(kept(store)), .display(root.read())]
        while true {
            for event in events {
                guard let line = watch.handle(event, at: Clock.wall()) else { continue }
                switch Output.written(line + "\n") {
                case nil: break
                // The reader went away: the watch is over, and that is no failure.
                case Errno(EPIPE): return ExitStatus.success
                case let failure?: throw .failure("cannot write to standard output: \(failure)")
                }
            }
            events = []
            // What came in while the display was read is in Xlib's queue, not on the socket.
            while root.takeEvents() { events.append(.display(root.read())) }
            guard events.isEmpty else { continue }
            timer.arm(at: watch.deadline)
            root.flush()
            let ready: [Int16]
            do throws(Errno) {
                // Standard output is asked for nothing: poll still says when its reader has gone.
                ready = try display.idle { () throws(Errno) in
                    try Descriptor.waitForAny([
                        (root.descriptor, Int16(POLLIN)), (folder.descriptor, Int16(POLLIN)), (timer.descriptor, Int16(POLLIN)), (1, 0),
                    ])
                }
            } catch {
                throw .failure("cannot wait for changes: \(error)")
            }
            if ready[3] & Int16(POLLERR | POLLHUP) != 0 { return ExitStatus.success }
            if ready[2] != 0 {
                timer.acknowledge()
                events.append(.time)
            }
            if ready[1] != 0 && folder.changed() { events.append(.kept(kept(store))) }
            if root.takeEvents() { events.append(.display(root.read())) }
        }
    }

    /// What the store holds now, for the watch.
    private static func kept(_ store: KeptStore) -> Watch.Kept { Watch.Kept(ids: store.ids(), readUpTo: store.readUpTo()) }
}
