/// A full stack: a stacked toast that would reach past its monitor's edge waits for room, as a
/// queued toast waits for its turn, and looks again each time a toast placed before it goes or
/// changes size (`Stack.place` decides). Nothing is ever placed off its monitor, and no toast is
/// dropped for want of room.
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
