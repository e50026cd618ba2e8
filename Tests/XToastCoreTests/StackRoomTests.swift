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

/// Where a stacked toast goes: past the boxes placed before it, decided once under the grab
/// (`QueueMember.placeInStack`), so that toasts started together never push each other off
/// their monitor (issue #28, D8).
@Suite("Stack placement")
struct StackPlacementTests {
    static let left = Rect(x: 0, y: 0, width: 1920, height: 1080)
    static let right = Rect(x: 1920, y: 0, width: 1920, height: 1080)

    /// A 300×100 toast at the bottom right of `monitor`, 15 px from its edges.
    static func spot(on monitor: Rect = left, height: Int = 100) -> Stack.Spot {
        Stack.Spot(
            size: Size(width: 300, height: height), workArea: monitor, monitor: monitor, position: .bottomRight, margin: 15,
            offset: Point(x: 0, y: 0))
    }

    /// A box of `height` on `monitor`.
    static func box(_ height: Int, on monitor: Rect = left) -> Rect { Rect(x: monitor.x + 1605, y: 500, width: 300, height: height) }

    @Test(
        "Past the boxes on its monitor, each with the gap; boxes elsewhere take no room; no fit, no place",
        arguments: [
            ([Rect](), [0]),
            ([box(100), box(60)], [180]),
            ([box(100), box(100, on: right)], [110]),
            // 10 boxes of 100 and their gaps: 1100 px, and the toast's own 100 past the 1050 there are.
            (Array(repeating: box(90), count: 10), nil),
            (Array(repeating: box(90), count: 9), [900]),
        ])
    func place(boxes: [Rect], expected: [Int]?) {
        #expect(Stack.place([Self.spot()], past: boxes, gap: 10) == expected)
    }

    @Test("On two monitors it needs room on both")
    func twoMonitors() {
        let spots = [Self.spot(on: Self.left), Self.spot(on: Self.right)]
        #expect(Stack.place(spots, past: [Self.box(100, on: Self.right)], gap: 10) == [0, 110])
        let full = Array(repeating: Self.box(90, on: Self.right), count: 10)
        #expect(Stack.place(spots, past: full, gap: 10) == nil)
    }

    @Test("The box past a shift moves away from the edge: up from the bottom, down from the top")
    func boxes() {
        #expect(Self.spot().box(shift: 0) == Rect(x: 1605, y: 965, width: 300, height: 100))
        #expect(Self.spot().box(shift: 110) == Rect(x: 1605, y: 855, width: 300, height: 100))
        var top = Self.spot()
        top.position = .top
        #expect(top.box(shift: 110).y == 125)
    }

    static let me: UInt = 50
    static func member() -> QueueMember { QueueMember(me: me, ticket: Ticket(pid: 1, tag: nil, stack: .bottomRight)) }
    static func facts(_ position: Position?, _ box: Rect?) -> QueueMember.Facts {
        QueueMember.Facts(
            ticket: Ticket(pid: 2, tag: nil, stack: position), shown: box.map { QueueMember.Shown(box: $0, progress: nil) }, replaces: [])
    }

    @Test("Placed under the grab: past every placed box at its position, before it in the list or not; then last in the list")
    func placesUnderTheGrab() {
        var member = Self.member()
        let placing = QueueMember.Placing(spots: [Self.spot()], gap: 10, progress: nil)
        var step = member.placeInStack(placing)
        #expect(step == QueueMember.Step([.grab], .ask(.list(.stack, limit: TicketQueue.rewriteLimit))))
        // 10: placed before us; 20: not placed yet (it goes past us when it is); 30: another
        // position; 40: gone; 60: placed after we joined, before we were placed.
        step = member.answer(.list([10, 20, Self.me, 30, 40, 60]))
        #expect(step == QueueMember.Step([], .ask(.facts([10, 20, 30, 40, 60]))))
        step = member.answer(
            .facts([
                Self.facts(.bottomRight, Self.box(100)), Self.facts(.bottomRight, nil), Self.facts(.top, Self.box(100)),
                QueueMember.Facts(ticket: nil, shown: nil, replaces: []), Self.facts(.bottomRight, Self.box(60)),
            ]))
        let mine = Rect(x: 1605, y: 965 - 180, width: 300, height: 100)
        #expect(
            step.writes == [
                .watchStack([10, 60]), .write(.stack, [10, 20, 30, 60, Self.me]), .shown(QueueMember.Shown(box: mine, progress: nil)),
                .ungrab,
            ])
        #expect(step.next == .placed([180]))
    }

    @Test("No room: nothing written but the watch on the boxes whose end makes room, and the grab's end")
    func noRoom() {
        var member = Self.member()
        _ = member.placeInStack(QueueMember.Placing(spots: [Self.spot()], gap: 10, progress: nil))
        _ = member.answer(.list(Array(1...10) + [Self.me]))
        let step = member.answer(.facts(Array(repeating: Self.facts(.bottomRight, Self.box(90)), count: 10)))
        #expect(step.writes == [.watchStack(Array(1...10)), .ungrab])
        #expect(step.next == .placed(nil))
    }
}
