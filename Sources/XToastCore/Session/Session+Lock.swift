/// Never over a locked screen (issue #22): before anything else, a toast whose turn came asks
/// whether a locker, a blanker or the screen saver covers its monitors (`Coverage` decides on the
/// X side). While it does, the toast stands aside in its place, as one delayed by a fullscreen
/// window does (the toasts behind pass it, and stand aside too), and nothing of it shows: not its
/// text, not a redacted box (the locker owns the screen; a box of ours over it could hide its
/// prompt). Once unlocked the toasts that waited show in the order they started.
/// A toast already up when a locker comes is withdrawn (unmapped: nothing of it can be over the
/// locker, whatever the stacking order says, a race with the locker's own map included); its time
/// stands still until the unlock, so that what it says is still there to be read afterwards, and
/// what it is told meanwhile (a line read, a command's result) shows only then (issue #28).
extension Session {
    /// Asks whether the screen is locked before anything shows.
    mutating func showUnlessLocked() -> [Effect] {
        phase = .waiting(.behindLock)
        return [.lookAtLock]
    }

    /// The answer to `lookAtLock`.
    mutating func lock(_ state: LockState, while waiting: Waiting, at now: Double) -> [Effect] {
        switch (waiting, state) {
        case (.behindLock, .clear), (.lockUndecided, .clear):
            return showUnlessCovered()
        case (.behindLock, .undecided):
            return recheck(after: LockRecheck(next: nil, looks: 0), at: now)
        case (.lockUndecided(let recheck), .undecided):
            return self.recheck(after: recheck, at: now)
        case (.behindLock, .locked), (.lockUndecided, .locked):
            phase = .waiting(.locked)
            // Stacked toasts keep nobody waiting: they wait in their place. Watched from here on,
            // and looked at once more: an unlock in between would otherwise go unseen.
            return (plan.stack ? [] : [.standAsideInPlace]) + [.watchLock, .lookAtLock]
        case (.locked, .clear), (.locked, .undecided):
            // Undecided here: the locker let the input go (it is leaving), or whoever held it
            // over an overlay (a menu) did.
            if plan.stack { return showUnlessLocked() }
            // Still in its place, as after a fullscreen window: the lock is asked about again at
            // the turn.
            phase = .waiting(.forTurn)
            return [.lookAtTurn]
        default:
            return []
        }
    }

    /// Undecided again after `recheck`: another look later, or, looked at enough, no locker.
    private mutating func recheck(after recheck: LockRecheck, at now: Double) -> [Effect] {
        guard recheck.looks < Self.lockRechecks.count else { return showUnlessCovered() }
        phase = .waiting(.lockUndecided(LockRecheck(next: now + Self.lockRechecks[recheck.looks], looks: recheck.looks + 1)))
        return []
    }

    /// A look at an undecided lock that is due, waiting or on screen.
    mutating func lockLook(at now: Double) -> [Effect] {
        switch phase {
        case .waiting(.lockUndecided(var recheck)):
            guard let next = recheck.next, now >= next else { return [] }
            recheck.next = nil
            phase = .waiting(.lockUndecided(recheck))
            return [.lookAtLock]
        case .showing(var showing):
            guard case .undecided(var recheck) = showing.lock, let next = recheck.next, now >= next else { return [] }
            recheck.next = nil
            showing.lock = .undecided(recheck)
            phase = .showing(showing)
            return [.lookAtLock]
        default:
            return []
        }
    }

    /// The lock's events while a toast is up: a locker over it or the screen saver withdraws it
    /// and freezes its time, the unlock brings it back and lets it go on (for at least the hover
    /// minimum, as after the pointer), with what it was told meanwhile. Watched and looked at from
    /// the first frame on, before it is announced: a locker's window comes as any map does (unless
    /// it came between the look before the show and the show), the screen saver only to those
    /// who ask. A window that may be a locker's with nobody holding the input is looked at again.
    mutating func lockWhileShowing(_ event: Event, at now: Double) -> [Effect] {
        guard var showing else { return [] }
        if showing.reply != nil, case .lock(let state) = event, state != .clear {
            // A locker needs the keyboard: an open reply entry gives it back first.
            return closeReply(at: now) + lockWhileShowing(event, at: now)
        }
        switch event {
        case .lockChanged: return [.lookAtLock]
        case .lock(.locked):
            guard !showing.underLock else { return [] }
            let frozen = freeze(.locked, at: now)
            guard self.showing?.underLock == true else { return frozen }
            // Once under it, the windows found covering it are watched, then looked at once more
            // (as above); only then, so that the looks end.
            return [.withdraw] + frozen + [.watchLock, .lookAtLock]
        case .lock(.undecided):
            switch showing.lock {
            case .clear, .undecided:
                var looks = 0
                if case .undecided(let recheck) = showing.lock { looks = recheck.looks }
                showing.lock =
                    looks < Self.lockRechecks.count
                    ? .undecided(LockRecheck(next: now + Self.lockRechecks[looks], looks: looks + 1)) : .clear
                phase = .showing(showing)
                return []
            case .locked:
                // The locker let the input go (it is leaving): unlocked.
                return unlock(at: now)
            }
        case .lock(.clear):
            guard showing.underLock else {
                showing.lock = .clear
                phase = .showing(showing)
                return []
            }
            return unlock(at: now)
        default: return []
        }
    }

    /// The unlock of a toast on screen: back on top, its time going on, with what it was told.
    private mutating func unlock(at now: Double) -> [Effect] {
        guard case .locked(let heldUpdate) = showing?.lock else { return [] }
        let thawed = thaw(.locked, at: now)
        guard heldUpdate, let showing else { return [.restore] + thawed }
        return [.restore] + thawed + [.show(content, showing.timeline, composited: showing.screen.composited, morph: true)]
    }
}
