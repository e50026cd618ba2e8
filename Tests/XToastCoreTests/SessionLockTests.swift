import Testing

@testable import XToastCore

@Suite("Session machine: never over a locked screen")
struct SessionLockTests {
    @Test("Locked at its turn: aside in its place, nothing shown, at its turn once unlocked")
    func waitsAsideInPlace() {
        var v = VirtualSession(SessionTests.plan())
        v.locked = true
        // Watched, then looked at once more: an unlock in between is not missed.
        #expect(v.send(.start).suffix(4) == [.lookAtLock, .standAsideInPlace, .watchLock, .lookAtLock])
        v.advance(to: 600)
        #expect(v.session.phase == .waiting(.locked))
        #expect(v.effects.shows.isEmpty)
        #expect(v.send(.queueChanged).isEmpty, "aside, it does not look at its turn")
        #expect(v.send(.lockChanged) == [.lookAtLock], "still locked: it goes on waiting")
        v.locked = false
        let back = v.send(.lockChanged)
        #expect(back.prefix(3) == [.lookAtLock, .lookAtTurn, .lookAtLock], "in its place: no join")
        #expect(back.shows == [SessionTests.message])
        #expect(v.runToEnd() == .expired)
    }

    @Test("Whatever its fullscreen policy (an OSD's is show), the lock is asked first")
    func everyToastAsks() {
        for policy in FullscreenPolicy.allCases {
            var plan = SessionTests.plan()
            plan.fullscreen = policy
            var v = VirtualSession(plan)
            v.locked = true
            v.covered = true
            #expect(v.send(.start).suffix(4) == [.lookAtLock, .standAsideInPlace, .watchLock, .lookAtLock], "\(policy)")
            #expect(!v.effects.contains(.lookAtFullscreen))
        }
    }

    @Test("Unlocked onto a film: the fullscreen policy decides next")
    func thenTheFilm() {
        var plan = SessionTests.plan()
        plan.fullscreen = .drop
        var v = VirtualSession(plan)
        v.locked = true
        v.covered = true
        v.send(.start)
        v.locked = false
        #expect(v.send(.lockChanged).suffix(2) == [.lookAtFullscreen, .finish(.dropped)])
    }

    @Test("Stacked: waits in its place (it holds nobody up) and shows once unlocked")
    func stacked() {
        var v = VirtualSession(SessionTests.plan(stack: true))
        v.locked = true
        #expect(v.send(.start).suffix(3) == [.lookAtLock, .watchLock, .lookAtLock])
        #expect(!v.effects.contains(.standAsideInPlace))
        v.locked = false
        #expect(v.send(.lockChanged).shows == [SessionTests.message])
    }

    @Test("Dismissed while it waits for the unlock: ends, never shown")
    func dismissed() {
        var v = VirtualSession(SessionTests.plan())
        v.locked = true
        v.send(.start)
        #expect(v.send(.remote(.dismiss)) == [.finish(.dismissed)])
        #expect(v.effects.shows.isEmpty)
    }

    @Test("Up when a locker comes: its time stands still under it, and goes on after the unlock")
    func frozenUnderTheLocker() {
        var v = VirtualSession(SessionTests.plan(hold: 1))
        v.send(.start)
        v.advance(to: 0.5)
        v.locked = true
        let looked = v.send(.lockChanged)
        #expect(looked.first == .lookAtLock && looked.suffix(2) == [.watchLock, .lookAtLock])
        #expect(v.session.showing?.isFrozen == true)
        v.advance(to: 600)
        #expect(v.session.outcome == nil, "it expired under the locker")
        v.locked = false
        v.send(.lockChanged)
        #expect(v.session.showing?.isFrozen == false)
        #expect(v.runToEnd() == .expired)
        // A look that finds no locker (a menu mapped) changes nothing.
        var menu = VirtualSession(SessionTests.plan(hold: 1))
        menu.send(.start)
        #expect(menu.send(.lockChanged) == [.lookAtLock])
        #expect(menu.session.showing?.isFrozen == false)
    }

    @Test("Watched from its first frame, before it says it is up: the screen saver is heard while it shows")
    func watchedWhileUp() {
        var v = VirtualSession(SessionTests.plan(hold: 1))
        let first = v.send(.start)
        let watch = first.firstIndex(of: .watchLock)
        let announce = first.firstIndex { if case .announce = $0 { true } else { false } }
        #expect(watch != nil && announce != nil && watch! < announce!)
        let present = first.firstIndex { if case .present = $0 { true } else { false } }
        #expect(present.map { $0 < watch! } == true, "after the first frame")
        // Once a toast: an update is not watched again.
        v.advance(to: 0.5)
        v.send(.lines(["Again"]))
        v.advance(to: 0.6)
        #expect(v.effects.filter { $0 == .watchLock }.count == 1)
        // The saver comes on (a look finds it): the time stands still; a second look changes nothing.
        v.locked = true
        #expect(v.send(.lockChanged).suffix(2) == [.watchLock, .lookAtLock])
        #expect(v.send(.lockChanged) == [.lookAtLock], "under the lock already: no watch again")
        v.advance(to: 600)
        #expect(v.session.outcome == nil)
        v.locked = false
        v.send(.lockChanged)
        #expect(v.runToEnd() == .expired)
    }

    @Test("Up when a locker comes: withdrawn first, then frozen; back on top at the unlock")
    func withdrawnUnderTheLocker() {
        var v = VirtualSession(SessionTests.plan(hold: 1))
        v.send(.start)
        v.advance(to: 0.5)
        v.locked = true
        let looked = v.send(.lockChanged)
        #expect(looked.prefix(2) == [.lookAtLock, .withdraw], "nothing of it stays over the locker")
        #expect(v.send(.covered).isEmpty, "never raised over a locker")
        v.locked = false
        let back = v.send(.lockChanged)
        #expect(back.prefix(2) == [.lookAtLock, .restore])
        #expect(back.shows.isEmpty, "nothing new came: the same windows come back")
        #expect(v.send(.covered) == [.raise])
    }

    @Test("Told something under the locker (a line read, a command's result): nothing maps until the unlock, then it shows")
    func updatesWaitForTheUnlock() {
        var v = VirtualSession(SessionTests.plan(hold: 1))
        v.send(.start)
        v.advance(to: 0.5)
        v.locked = true
        v.send(.lockChanged)
        let told = v.send(.lines(["UPDATE SECRET"]))
        #expect(told.shows.isEmpty, "an update mapped a window over the locker")
        v.advance(to: 30)
        #expect(!v.effects.suffix(from: v.effects.lastIndex(of: .withdraw)!).contains { if case .show = $0 { true } else { false } })
        #expect(v.session.showing?.lock == .locked(heldUpdate: true))
        v.locked = false
        let back = v.send(.lockChanged)
        #expect(back.prefix(2) == [.lookAtLock, .restore])
        #expect(
            back.shows.map(\.message) == [SessionTests.message.updated(byLine: "UPDATE SECRET")!.message],
            "what came meanwhile shows after the unlock")
        #expect(v.runToEnd() == .expired)
    }

    @Test("A --run command that ends under the locker: its result waits for the unlock")
    func commandResultWaitsForTheUnlock() {
        var v = VirtualSession(SessionTests.plan(command: SessionTests.run))
        v.send(.start)
        v.advance(to: 2)
        #expect(v.session.showing != nil)
        v.locked = true
        v.send(.lockChanged)
        #expect(v.send(.commandEnded(status: 1)).shows.isEmpty)
        v.locked = false
        #expect(v.send(.lockChanged).shows.count == 1)
        #expect(v.runToEnd() == .expired)
    }

    @Test("Its first frame looks at the lock once more: a locker that came between the look and the map is found")
    func lockerBetweenTheLookAndTheMap() {
        var plain = VirtualSession(SessionTests.plan(hold: 1))
        #expect(plain.send(.start).filter { $0 == .lookAtLock }.count == 2, "looked at at its turn and after its first frame")
        // Clear at the turn's look; locked by the time the first frame is out.
        var w = VirtualSession(SessionTests.plan(hold: 1))
        w.lockAfterLooks = 1
        let effects = w.send(.start)
        let withdraw = effects.firstIndex(of: .withdraw)
        let announce = effects.firstIndex { if case .announce = $0 { true } else { false } }
        #expect(withdraw != nil && announce != nil && withdraw! < announce!, "withdrawn before it says it is up")
        w.advance(to: 600)
        #expect(w.session.outcome == nil, "its time stood still under the locker")
    }

    @Test("A window that may be a locker's, nobody holding the input yet: looked at again before anything shows")
    func undecidedThenLocked() {
        var v = VirtualSession(SessionTests.plan())
        v.lockUndecided = true
        v.send(.start)
        #expect(v.session.waiting.map { if case .lockUndecided = $0 { true } else { false } } == true)
        #expect(v.session.deadline == Session.lockRechecks[0])
        // The locker takes the input before the second look.
        v.advance(to: 0.06)
        v.locked = true
        v.advance(to: 0.2)
        #expect(v.session.phase == .waiting(.locked))
        #expect(v.effects.shows.isEmpty)
        #expect(v.effects.filter { $0 == .lookAtLock }.count >= 3)
    }

    @Test("An overlay that never takes the input: the toast shows once looked at enough, within a second")
    func undecidedIsAnOverlay() {
        var v = VirtualSession(SessionTests.plan())
        v.lockUndecided = true
        v.send(.start)
        v.advance(to: Session.lockRechecks.reduce(0, +) - 0.001)
        #expect(v.effects.shows.isEmpty)
        v.advance(to: Session.lockRechecks.reduce(0, +) + 0.001)
        #expect(v.effects.shows.count == 1)
        #expect(
            v.effects.filter { $0 == .lookAtLock }.count == 1 + Session.lockRechecks.count + 1,
            "looked at its turn, again, and after its first frame")
        #expect(v.runToEnd() == .expired)
    }

    @Test("Up when a locker maps before it takes the input: looked at again, then withdrawn")
    func undecidedWhileUp() {
        var v = VirtualSession(SessionTests.plan(hold: 1))
        v.send(.start)
        v.advance(to: 0.5)
        v.lockUndecided = true
        #expect(v.send(.lockChanged) == [.lookAtLock])
        #expect(v.session.showing?.isFrozen == false)
        #expect(v.session.deadline! <= 0.5 + Session.lockRechecks[0])
        v.locked = true
        let looked = v.advance(to: 0.6)
        #expect(looked.contains(.withdraw))
        #expect(v.session.showing?.underLock == true)
        v.advance(to: 600)
        #expect(v.session.outcome == nil)
    }
}
