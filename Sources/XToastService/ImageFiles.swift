import CCairo
import Glibc
import XToastCore
import XToastSystem

/// The pictures applications send as `image-data`, written as PNGs for the toasts' `--icon`:
/// in a folder of this service's own (mode 0700, under `$XDG_RUNTIME_DIR`, else the temporary
/// folder), each file removed when its toast ends and the folder when the service exits.
final class ImageFiles {
    let folder: String?
    private var count = 0

    init() {
        let base = Environment.value("XDG_RUNTIME_DIR") ?? Environment.value("TMPDIR")
        var template = Array("\(base ?? "/tmp")/xtoast-notifications-XXXXXX".utf8CString)
        folder = template.withUnsafeMutableBufferPointer { buffer in
            guard let baseAddress = buffer.baseAddress, mkdtemp(baseAddress) != nil else { return nil }
            return String(cString: baseAddress)
        }
    }

    deinit { if let folder { rmdir(folder) } }

    /// Writes `image` for notification `id`: the file's path, or why not.
    func write(_ image: NotificationImage, id: UInt32) throws(NotificationImage.Problem) -> String {
        var pixels = try image.premultipliedARGB()
        guard let folder else { throw NotificationImage.Problem(description: "no folder for image files") }
        count += 1
        let path = "\(folder)/\(id)-\(count).png"
        let stride = Int32(image.width) * 4
        let status = pixels.withUnsafeMutableBytes { bytes -> cairo_status_t in
            guard
                let surface = cairo_image_surface_create_for_data(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, image.width, image.height, stride)
            else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo_surface_destroy(surface) }
            let made = cairo_surface_status(surface)
            guard made == CAIRO_STATUS_SUCCESS else { return made }
            return cairo_surface_write_to_png(surface, path)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            unlink(path)
            throw NotificationImage.Problem(description: "cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        return path
    }
}
