/// A rounded rectangle as whole-pixel rows, for a 1-bit window shape (XShape) where nothing
/// can be antialiased.
public enum RoundedRectShape {
    /// Which edge pixels belong to the shape.
    public enum Coverage: Sendable {
        /// A pixel whose centre lies inside the curve: the best 1-bit edge, where nothing blends
        /// (no compositor).
        case centre
        /// Every pixel the curve touches: the shape keeps all the antialiased edge pixels a
        /// compositor blends, and cuts only what is wholly outside the box.
        case any
    }

    /// Rectangles that together cover a `size` box with corners of `radius` pixels.
    public static func rectangles(size: Size, radius: Double, coverage: Coverage = .centre) -> [Rect] {
        guard size.width > 0, size.height > 0 else { return [] }
        let r = min(radius, Double(min(size.width, size.height)) / 2)
        let cornerRows = Int(r.rounded(.up))
        guard r > 0, cornerRows > 0 else { return [Rect(x: 0, y: 0, width: size.width, height: size.height)] }
        var rows: [Rect] = []
        for row in 0..<cornerRows {
            let inset: Int
            switch coverage {
            case .centre:
                // Distance from the pixel centre to the circle centre, vertically.
                let dy = r - (Double(row) + 0.5)
                if dy <= 0 {
                    inset = 0
                } else {
                    // The leftmost pixel whose centre is inside the circle.
                    inset = Int((r - (r * r - dy * dy).squareRoot() - 0.5).rounded(.up))
                }
            case .any:
                // The row's point nearest the circle centre, vertically: its lower edge.
                let dy = max(r - Double(row + 1), 0)
                inset = Int((r - (r * r - dy * dy).squareRoot()).rounded(.down))
            }
            let width = size.width - 2 * max(inset, 0)
            guard width > 0 else { continue }
            rows.append(Rect(x: max(inset, 0), y: row, width: width, height: 1))
            // With an odd height and a radius near half of it, the middle row is its own mirror.
            if size.height - 1 - row != row {
                rows.append(Rect(x: max(inset, 0), y: size.height - 1 - row, width: width, height: 1))
            }
        }
        let middle = size.height - 2 * cornerRows
        if middle > 0 {
            rows.append(Rect(x: 0, y: cornerRows, width: size.width, height: middle))
        }
        return rows
    }
}
