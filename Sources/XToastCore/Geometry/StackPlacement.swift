/// Where a stacked toast goes (issue #28, D8). A toast's place is decided once, from the boxes
/// the toasts placed before it published: a toast not placed yet takes no room, since it will go
/// past ours when it is placed (`QueueMember.placeInStack` moves its ticket to the stack's end
/// then), so no toast placed earlier ever moves outwards for a later one. Only a toast that
/// leaves (or an update that resizes one) moves the others, and a toast leaving moves them back
/// towards their edge. A toast that does not fit on one of its monitors waits for room.
extension Stack {
    /// One monitor's part of a stacked toast: what `Placement` needs to put its box there.
    public struct Spot: Equatable, Sendable {
        public var size: Size
        /// Where boxes may go on the monitor (past its docks).
        public var workArea: Rect
        /// The whole monitor: the boxes on it are the toast's neighbours.
        public var monitor: Rect
        public var position: Position
        public var margin: Int
        /// Its offset alone, before any shift (`--offset`, scaled).
        public var offset: Point

        public init(size: Size, workArea: Rect, monitor: Rect, position: Position, margin: Int, offset: Point) {
            self.size = size
            self.workArea = workArea
            self.monitor = monitor
            self.position = position
            self.margin = margin
            self.offset = offset
        }

        /// Its offset `shift` pixels past its own place, away from its edge.
        public func offset(shift: Int) -> Point {
            Point(x: offset.x, y: offset.y + position.stackDirection * shift)
        }

        /// Its box `shift` pixels past its own place (pushed back onto the work area when it
        /// would leave it: see `fits`).
        public func box(shift: Int) -> Rect {
            let origin = Placement.origin(for: size, on: workArea, position: position, margin: margin, offset: offset(shift: shift))
            return Rect(origin: origin, size: size)
        }

        /// Whether `shift` pixels past its own place it is still whole on the work area.
        public func fits(shift: Int) -> Bool {
            Stack.fits(placed: box(shift: shift).origin, alone: box(shift: 0).origin, shift: shift)
        }
    }

    /// How far past its own place a toast on `monitor` sits: past the boxes there, each with
    /// `gap` pixels after it. Boxes on other monitors take no room on this one.
    public static func shift(past boxes: [Rect], on monitor: Rect, gap: Int) -> Int {
        shift(after: boxes.filter { monitor.contains($0) }.map(\.height), gap: gap)
    }

    /// The shift on each of `spots`' monitors for a toast placed now, past `boxes` (those of the
    /// toasts placed before it at its position); nil when it does not fit on one of them, and
    /// waits for room.
    public static func place(_ spots: [Spot], past boxes: [Rect], gap: Int) -> [Int]? {
        let shifts = spots.map { shift(past: boxes, on: $0.monitor, gap: gap) }
        return zip(spots, shifts).allSatisfy { $0.fits(shift: $1) } ? shifts : nil
    }

    /// Whether a stacked toast `shift` pixels past its own place fits on its monitor: placed
    /// there (`placed`), it moved the whole shift from where it would be alone (`alone`).
    /// Placement keeps every box on its monitor by pushing it back inside, which would lay a
    /// toast that does not fit over the others. The first of a stack always fits.
    public static func fits(placed: Point, alone: Point, shift: Int) -> Bool {
        shift == 0 || abs(placed.x - alone.x) + abs(placed.y - alone.y) == shift
    }
}
