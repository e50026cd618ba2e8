/// A rounded rectangle as whole-pixel rows, for a 1-bit window shape (XShape) where nothing
/// can be antialiased: a pixel belongs to the shape when its centre lies inside the curve.
public enum RoundedRectShape {
    /// Rectangles that together cover a `size` box with corners of `radius` pixels.
    public static func rectangles(size: Size, radius: Double) -> [Rect] {
        let r = min(radius, Double(min(size.width, size.height)) / 2)
        let cornerRows = Int(r.rounded(.up))
        guard r > 0, cornerRows > 0 else { return [Rect(x: 0, y: 0, width: size.width, height: size.height)] }
        var rows: [Rect] = []
        for row in 0..<cornerRows {
            // Distance from the pixel centre to the circle centre, vertically.
            let dy = r - (Double(row) + 0.5)
            let inset: Int
            if dy <= 0 {
                inset = 0
            } else {
                let dx = (r * r - dy * dy).squareRoot()
                // The leftmost pixel whose centre is inside the circle.
                inset = Int((r - dx - 0.5).rounded(.up))
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
