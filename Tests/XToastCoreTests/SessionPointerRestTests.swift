import Testing

@testable import XToastCore

@Suite("Session machine: a pointer resting over a click-through toast")
struct SessionPointerRestTests {
    @Test("Resting over it, the pointer is looked at once a second (a warp makes no raw motion); off it, never")
    func restLooks() {
        var v = VirtualSession(SessionTests.plan(hold: 5))
        v.send(.start)
        v.advance(to: 1)
        v.send(.hover(.entered))
        v.send(.pointerMoves(false))
        #expect(v.session.deadline.map { abs($0 - (1 + Session.pointerRestLookInterval)) < 1e-9 } == true)
        #expect(v.advance(to: 1 + Session.pointerRestLookInterval).contains(.lookAtPointer))
        v.send(.hover(.left))
        v.send(.pointerMoves(false))
        #expect(v.session.showing?.nextPointerLook == nil)
    }
}
