import CCairo
import Glibc
import XToastCore
import XToastSystem

/// The pictures applications send as `image-data`, written as PNGs for the toasts' `--icon`, no
/// larger than a toast draws them: in the service's folder (`$XDG_RUNTIME_DIR/xtoast/pictures`,
/// the user's alone), each file removed when its notification ends, which may be after this
/// service has gone (a kept notification keeps its picture: the next service removes it).
final class ImageFiles {
    let folder: String
    private var count = 0

    init(folder: String = "\(NotificationIDs.folder)/pictures") { self.folder = folder }

    /// Removes the pictures older than `age` seconds that no kept notification has: a service
    /// that was killed left them.
    func sweep(olderThan age: Int, keeping kept: Set<String>) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        let now = Int(Clock.wall())
        var looked = 0
        while looked < KeptNotifications.fileCountLimit, let entry = readdir(directory) {
            looked += 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".png") else { continue }
            let path = "\(folder)/\(name)"
            var status = stat()
            guard !kept.contains(path), lstat(path, &status) == 0, now - Int(status.st_mtim.tv_sec) > age else { continue }
            unlink(path)
        }
    }

    /// Writes `image` for notification `id`, no larger than `NotificationImage.pictureSide` each
    /// way (a toast never draws it larger; a picture near the 16 MiB bound would otherwise make
    /// a PNG past the toast's own bound): the file's path, or why not.
    func write(_ image: NotificationImage, id: UInt32) throws(NotificationImage.Problem) -> String {
        var pixels = try image.premultipliedARGB()
        for path in [NotificationIDs.folder, folder] where mkdir(path, 0o700) != 0 && Errno.current != .exists {
            throw NotificationImage.Problem(description: "cannot make \(path)")
        }
        count += 1
        let path = "\(folder)/\(id)-\(getpid())-\(count).png"
        let stride = Int32(image.width) * 4
        let status = pixels.withUnsafeMutableBytes { bytes -> cairo_status_t in
            guard
                let source = cairo_image_surface_create_for_data(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, image.width, image.height, stride)
            else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo_surface_destroy(source) }
            let made = cairo_surface_status(source)
            guard made == CAIRO_STATUS_SUCCESS else { return made }
            let side = Double(NotificationImage.pictureSide)
            let factor = min(1, side / Double(max(image.width, image.height)))
            guard factor < 1 else { return cairo_surface_write_to_png(source, path) }
            let width = max(Int32((Double(image.width) * factor).rounded()), 1)
            let height = max(Int32((Double(image.height) * factor).rounded()), 1)
            guard let scaled = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo_surface_destroy(scaled) }
            guard let cr = cairo_create(scaled) else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo_destroy(cr) }
            cairo_scale(cr, Double(width) / Double(image.width), Double(height) / Double(image.height))
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_surface_flush(scaled)
            return cairo_surface_write_to_png(scaled, path)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            unlink(path)
            throw NotificationImage.Problem(description: "cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        return path
    }
}
