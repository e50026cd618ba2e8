/// Space a dock or panel keeps for itself along the screen's edges (EWMH `_NET_WM_STRUT_PARTIAL`,
/// or the older `_NET_WM_STRUT`), as rectangles in root coordinates.
///
/// Any client can write any numbers there: each edge is checked on its own, and one that is
/// impossible (wider than half the screen, a range outside it or backwards) is dropped rather
/// than allowed to push toasts off their monitor.
public struct Strut: Equatable, Sendable {
    /// The screen edge a reservation hangs from.
    public enum Edge: Sendable { case left, right, top, bottom }

    /// The reserved rectangles, at most one per edge.
    public let reserved: [(edge: Edge, rect: Rect)]

    public static func == (a: Strut, b: Strut) -> Bool {
        a.reserved.map(\.edge) == b.reserved.map(\.edge) && a.reserved.map(\.rect) == b.reserved.map(\.rect)
    }

    /// Reads the 12 values of `_NET_WM_STRUT_PARTIAL` (left, right, top, bottom, then the start
    /// and end of each along its edge: left_start_y, left_end_y, right_start_y, right_end_y,
    /// top_start_x, top_end_x, bottom_start_x, bottom_end_x); nil when there are not 12 or none
    /// of them reserves anything.
    public init?(partial values: [UInt32], screen: Size) {
        guard values.count == 12 else { return nil }
        // A range of 0…0 is how some write "the whole edge" (awesome's wibar), and how other
        // clients read it; a real one-pixel range at the corner reserves nothing worth keeping.
        let v = values.map(Int.init)
        let whole = { (start: Int, end: Int, along: Int) in start == 0 && end == 0 ? (0, along - 1) : (start, end) }
        let (leftY, rightY) = (whole(v[4], v[5], screen.height), whole(v[6], v[7], screen.height))
        let (topX, bottomX) = (whole(v[8], v[9], screen.width), whole(v[10], v[11], screen.width))
        self.init(
            left: (v[0], leftY.0, leftY.1), right: (v[1], rightY.0, rightY.1), top: (v[2], topX.0, topX.1),
            bottom: (v[3], bottomX.0, bottomX.1),
            screen: screen)
    }

    /// One reservation: `rect` (root coordinates) kept free along `edge`, as a window no strut
    /// describes takes it (`Coverage.band(of:on:)`).
    public init(reserving rect: Rect, from edge: Edge) {
        reserved = [(edge, rect)]
    }

    /// Reads the 4 values of the older `_NET_WM_STRUT` (left, right, top, bottom): each reserves
    /// its whole edge.
    public init?(full values: [UInt32], screen: Size) {
        guard values.count == 4 else { return nil }
        let v = values.map(Int.init)
        let rows = (0, screen.height - 1)
        let columns = (0, screen.width - 1)
        self.init(
            left: (v[0], rows.0, rows.1), right: (v[1], rows.0, rows.1), top: (v[2], columns.0, columns.1),
            bottom: (v[3], columns.0, columns.1), screen: screen)
    }

    private init?(
        left: (Int, Int, Int), right: (Int, Int, Int), top: (Int, Int, Int), bottom: (Int, Int, Int), screen: Size
    ) {
        guard screen.width > 0, screen.height > 0 else { return nil }
        /// The span along the edge, when the thickness and the range make sense on this screen.
        func span(_ edge: (Int, Int, Int), across: Int, along: Int) -> (thickness: Int, start: Int, length: Int)? {
            let (thickness, start, end) = edge
            guard thickness > 0, thickness <= across / 2, start >= 0, start <= end, start < along else { return nil }
            return (thickness, start, min(end, along - 1) - start + 1)
        }
        var reserved: [(edge: Edge, rect: Rect)] = []
        if let s = span(left, across: screen.width, along: screen.height) {
            reserved.append((.left, Rect(x: 0, y: s.start, width: s.thickness, height: s.length)))
        }
        if let s = span(right, across: screen.width, along: screen.height) {
            reserved.append((.right, Rect(x: screen.width - s.thickness, y: s.start, width: s.thickness, height: s.length)))
        }
        if let s = span(top, across: screen.height, along: screen.width) {
            reserved.append((.top, Rect(x: s.start, y: 0, width: s.length, height: s.thickness)))
        }
        if let s = span(bottom, across: screen.height, along: screen.width) {
            reserved.append((.bottom, Rect(x: s.start, y: screen.height - s.thickness, width: s.length, height: s.thickness)))
        }
        guard !reserved.isEmpty else { return nil }
        self.reserved = reserved
    }
}

/// The part of a monitor where a toast may go: clear of the docks and panels on it.
public enum WorkArea {
    /// `monitor` less what the struts reserve on it. A strut reaching into the monitor from an
    /// edge takes the monitor's side nearest that edge; struts on other monitors change nothing.
    /// Without any strut, `_NET_WORKAREA` (`workArea`, one rectangle for the whole screen, which
    /// window managers that draw their own panels set) is used where it lies inside the screen.
    /// Whatever is left is never less than half the monitor in either direction: past that the
    /// numbers are not a panel's, and the monitor is used whole.
    /// `inTheWay`: what windows no strut describes take along the edges (`Coverage.inTheWay`),
    /// kept clear of like struts, with or without `_NET_WORKAREA`.
    public static func usable(_ monitor: Rect, screen: Size, struts: [Strut], workArea: Rect?, inTheWay: [Strut] = []) -> Rect {
        var left = monitor.x
        var top = monitor.y
        var right = monitor.maxX
        var bottom = monitor.maxY
        let reservations = struts.flatMap(\.reserved)
        // A reservation counts on a monitor it reaches into by more than one pixel along its
        // edge: docks commonly write x + width as the end, which EWMH counts as inside, so a
        // bar on the left monitor would otherwise end one pixel into the right one (i3bar).
        for (edge, rect) in reservations + inTheWay.flatMap(\.reserved)
        where rect.overlapArea(with: monitor) > (edge == .left || edge == .right ? rect.width : rect.height) {
            // The screen edge it hangs from decides which side of the monitor it pushes.
            switch edge {
            case .left: left = max(left, rect.maxX)
            case .right: right = min(right, rect.x)
            case .top: top = max(top, rect.maxY)
            case .bottom: bottom = min(bottom, rect.y)
            }
        }
        if reservations.isEmpty, let workArea, workArea.width > 0, workArea.height > 0,
            Rect(x: 0, y: 0, width: screen.width, height: screen.height).contains(workArea)
        {
            left = max(left, workArea.x)
            top = max(top, workArea.y)
            right = min(right, workArea.maxX)
            bottom = min(bottom, workArea.maxY)
        }
        let usable = Rect(x: left, y: top, width: right - left, height: bottom - top)
        guard usable.width * 2 >= monitor.width, usable.height * 2 >= monitor.height else { return monitor }
        return usable
    }
}
