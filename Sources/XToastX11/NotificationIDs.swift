import CX11

extension XDisplay {
    /// The next notification id of the notification service: a counter on the root window
    /// (`_XTOAST_NOTIFY_NEXT_ID`), so that a service started again after it exited never hands
    /// out an id an application still holds. The X server outlives the service, and it holds
    /// the toasts' queue already. Read and written under a server grab: one service at a
    /// time, but a stale one may still be leaving.
    public func nextNotificationID() -> UInt32 {
        awake {
            let property = XInternAtom(pointer, "_XTOAST_NOTIFY_NEXT_ID", 0)
            let cardinal = Atom(XA_CARDINAL)
            XGrabServer(pointer)
            let stored = listProperty(root, property, type: cardinal, limit: 1)?.first ?? 1
            // Ids are above 0 and fit 32 bits; past the top, the count starts again at 1.
            let id = stored == 0 || stored > UInt(UInt32.max) ? 1 : stored
            setListProperty(root, property, type: cardinal, [id == UInt(UInt32.max) ? 1 : id + 1])
            XUngrabServer(pointer)
            XSync(pointer, 0)
            return UInt32(id)
        }
    }
}
