import Testing

@testable import XToastCore

@Suite("Idle: a toast waits for a user who is away")
struct IdleHoldTests {
    @Test(
        "At appearance: away from the threshold on; off when the threshold is 0 or the idle time unknown",
        arguments: [
            (120.0, 0.5 as Double?, IdleHold.State.present), (120, 119.9, .present), (120, 120, .away), (120, 3600, .away),
            (0, 3600, .off), (120, nil, .off),
        ])
    func appearance(threshold: Double, idle: Double?, expected: IdleHold.State) {
        let hold = IdleHold(threshold: threshold, returnHold: 2, idleSeconds: idle)
        #expect(hold.state == expected)
        #expect(hold.watchesReturn == (expected == .away))
    }

    @Test("Present at appearance: it ends when it would have, whatever happens after")
    func present() {
        var hold = IdleHold(threshold: 120, returnHold: 2, idleSeconds: 1)
        #expect(hold.end(normal: 5) == 5)
        hold.userReturned(at: 4)
        #expect(hold.state == .present)
        #expect(hold.end(normal: 5) == 5)
    }

    @Test("Away: held past its end until the user is back, then at least the return hold")
    func away() {
        var hold = IdleHold(threshold: 120, returnHold: 2, idleSeconds: 300)
        #expect(hold.end(normal: 5) == nil)
        // Back long after the toast would have ended: 2 s more from the return.
        hold.userReturned(at: 60)
        #expect(!hold.watchesReturn)
        #expect(hold.end(normal: 5) == 62)
        // A second return changes nothing.
        hold.userReturned(at: 90)
        #expect(hold.end(normal: 5) == 62)
    }

    @Test("Back before the end: it keeps its own time, never shortened")
    func backEarly() {
        var hold = IdleHold(threshold: 120, returnHold: 2, idleSeconds: 300)
        hold.userReturned(at: 1)
        #expect(hold.end(normal: 10) == 10)
        var late = IdleHold(threshold: 120, returnHold: 2, idleSeconds: 300)
        late.userReturned(at: 9.5)
        #expect(late.end(normal: 10) == 11.5)
    }

    @Test("A sticky toast stays sticky")
    func sticky() {
        var hold = IdleHold(threshold: 120, returnHold: 2, idleSeconds: 300)
        hold.userReturned(at: 3)
        #expect(hold.end(normal: .infinity) == .infinity)
    }
}
