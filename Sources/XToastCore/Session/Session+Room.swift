/// A full stack: a stacked toast that would reach past its monitor's edge waits for room, as a
/// queued toast waits for its turn, and looks again each time a toast before it comes, goes or
/// changes size. Nothing is ever placed off its monitor, and no toast is dropped for want of room.
extension Session {
    /// `noRoom` (the X side's answer to `show`) and the stack's changes while waiting for room.
    mutating func waitForRoom(_ event: Event) -> [Effect] {
        switch event {
        case .noRoom:
            // Asked to show, not shown yet: nothing is on screen to take away.
            guard plan.stack, let showing, showing.presentation == nil else { return [] }
            phase = .waiting(.forRoom)
            return []
        case .stackChanged:
            guard waiting == .forRoom else { return [] }
            return readyToShow()
        default:
            return []
        }
    }
}

extension Stack {
    /// Whether a stacked toast `shift` pixels past its own place fits on its monitor: placed
    /// there (`placed`), it moved the whole shift from where it would be alone (`alone`).
    /// Placement keeps every box on its monitor by pushing it back inside, which would lay a
    /// toast that does not fit over the others. The first of a stack always fits.
    public static func fits(placed: Point, alone: Point, shift: Int) -> Bool {
        shift == 0 || abs(placed.x - alone.x) + abs(placed.y - alone.y) == shift
    }
}
