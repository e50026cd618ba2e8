import CCairo
import Foundation

/// What the screen shows, composited (ImageMagick's `import`; `xwd` would miss the compositor).
final class Screenshot {
    private let surface: OpaquePointer
    let width: Int
    let height: Int

    init(display: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "xtoast-shot-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try runTool("import", ["-window", "root", path], display: display)
        guard let surface = cairo_image_surface_create_from_png(path), cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw TestFailure("cannot read the screenshot \(path)")
        }
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// The colour at a pixel, 0–255 a channel.
    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        let word = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        return (Int((word >> 16) & 0xff), Int((word >> 8) & 0xff), Int(word & 0xff))
    }
}
