import Testing

@testable import XToastCore

/// A full stack (`--stack`): a toast with no room on its monitor waits for a toast before it
/// to go, then shows; nothing is placed off its monitor, nothing is dropped.
@Suite("Stack room")
struct StackRoomTests {
    @Test(
        "A stacked toast fits when placed the whole shift from its own place; the first always does",
        arguments: [
            (Point(x: 10, y: 800), Point(x: 10, y: 1000), 200, true),
            // Pushed back onto the monitor: it moved less than its shift, over the others.
            (Point(x: 10, y: 0), Point(x: 10, y: 1000), 1200, false),
            (Point(x: 10, y: 1000), Point(x: 10, y: 1000), 0, true),
            (Point(x: 10, y: 300), Point(x: 10, y: 100), 200, true),
        ])
    func fits(placed: Point, alone: Point, shift: Int, expected: Bool) {
        #expect(Stack.fits(placed: placed, alone: alone, shift: shift) == expected)
    }

    /// A session of `plan` started and let through: its turn (a stacked toast's look reads only
    /// the pause), no lock; the effects of the last answer.
    static func started(_ plan: Session.Plan) -> (Session, [Session.Effect]) {
        var session = Session(plan, frameInterval: 0.01)
        #expect(session.handle(.start, at: 0).contains(.join))
        #expect(session.handle(.turn(.mine), at: 0) == [.lookAtLock])
        let effects = session.handle(.lock(.clear), at: 0)
        return (session, effects)
    }

    @Test("No room: the toast waits, without a window or a timeline, and shows once a toast before it goes")
    func waitsForRoom() {
        var (session, effects) = Self.started(SessionTests.plan(stack: true))
        #expect(effects.contains(.lookAtScreen))
        effects = session.handle(.screen(Session.Screen()), at: 0)
        #expect(effects.shows.count == 1)
        // The X side found the stack full.
        #expect(session.handle(.noRoom, at: 0).isEmpty)
        #expect(session.waiting == .forRoom)
        #expect(session.deadline == nil, "no wake-ups while it waits")
        // A tick or a frame does nothing; a change in the stack looks at the screen again.
        #expect(session.handle(.tick, at: 5).isEmpty)
        #expect(session.handle(.stackChanged, at: 6) == [.lookAtScreen])
        #expect(session.handle(.screen(Session.Screen()), at: 6).shows.count == 1)
        #expect(session.handle(.shown, at: 6).contains(where: { if case .present = $0 { true } else { false } }))
        #expect(session.showing != nil)
    }

    @Test("Waiting for room, a --dismiss ends it as any waiting toast")
    func dismissedWhileWaiting() {
        var (session, _) = Self.started(SessionTests.plan(stack: true))
        _ = session.handle(.screen(Session.Screen()), at: 0)
        #expect(session.handle(.noRoom, at: 0).isEmpty)
        #expect(session.waiting == .forRoom)
        #expect(session.handle(.remote(.dismiss), at: 1).contains(.finish(.dismissed)))
    }

    @Test("A toast already on screen ignores noRoom (an update keeps its place); a queued toast never waits for room")
    func onlyNewStackedToastsWait() {
        var (stacked, _) = Self.started(SessionTests.plan(stack: true))
        _ = stacked.handle(.screen(Session.Screen()), at: 0)
        _ = stacked.handle(.shown, at: 0)
        #expect(stacked.handle(.noRoom, at: 0.1).isEmpty)
        #expect(stacked.showing != nil)
        var (queued, effects) = Self.started(SessionTests.plan())
        #expect(effects.contains(.lookAtScreen))
        #expect(queued.handle(.screen(Session.Screen()), at: 0).shows.count == 1)
        #expect(queued.handle(.noRoom, at: 0).isEmpty)
        #expect(queued.waiting != .forRoom)
    }
}
