import CX11
import XToastCore

/// The lock's effects (issue #22): looking whether the screen is locked, and watching for the
/// unlock.
extension ToastSession {
    func carryOutLock(_ effect: Session.Effect) throws(X11Error) -> [Session.Event] {
        switch effect {
        case .lookAtLock:
            return [.lock(try lockState())]
        case .watchLock:
            lockWatch.watch()
            // What the server said before the watch began is stale for the look that follows it
            // (an unlock in between would come as no event): that look asks again.
            view.expire()
        case .withdraw:
            // The toast being replaced too: it stays up until the new one is drawn.
            for windows in [showing, retiring] { windows?.withdraw() }
        case .restore:
            showing?.restore()
            retiring?.restore()
        default: break
        }
        return []
    }

    /// Whether a locker, a blanker or the screen saver covers a monitor the toast goes on. At
    /// start the answers came with the docks' struts; later the monitors are asked again (and,
    /// before a show, kept for it).
    private func lockState() throws(X11Error) -> LockState {
        // Kept for the show that follows; while a toast is up, its update asks anew.
        let view = try self.view.use(keeping: showing == nil, orAsk: askView)
        return lockWatch.state(view.targets.map(\.rect), panels: view.panels.resolve())
    }
}
