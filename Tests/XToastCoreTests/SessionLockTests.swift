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
}
