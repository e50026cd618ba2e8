import CSystem
import Glibc

/// A folder watched with inotify, also while it or the folders above it do not exist yet
/// (`$XDG_RUNTIME_DIR/xtoast/kept` is made by the first notification kept): the folders above
/// it, up to `ancestors` of them, are watched for its path's next name coming or going, and the
/// folder itself for its entries. Nothing is polled: the descriptor is readable when something
/// happened, and `changed()` says whether it was something the caller reads.
public final class FolderWatch {
    /// Readable when events wait; for `poll`.
    public let descriptor: Int32
    /// The watched paths, from the highest ancestor down to the folder.
    private let levels: [String]
    /// Which level each watch descriptor is on.
    private var watches: [Int32: Int] = [:]

    /// What is watched in the folder: its entries written, renamed or removed; above it, the
    /// next folder of the path made, renamed or removed (and each watch's own end, always).
    private static let folderMask = UInt32(
        IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_ONLYDIR)
    private static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_ONLYDIR)

    /// Watches `folder` (an absolute path) and up to `ancestors` folders above it.
    public init(_ folder: String, ancestors: Int) throws(SystemFailure) {
        var levels = [folder]
        while levels.count <= ancestors, let slash = levels[0].lastIndex(of: "/"), slash != levels[0].startIndex {
            levels.insert(String(levels[0][..<slash]), at: 0)
        }
        self.levels = levels
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw SystemFailure("cannot watch \(folder)") }
        addWatches()
    }

    deinit { close(descriptor) }

    /// Watches every level that exists now (adding a watch again is harmless: the kernel gives
    /// the same descriptor back). A level made after its parent's watch was added is seen,
    /// as its creation is an event of the parent's.
    private func addWatches() {
        for (level, path) in levels.enumerated() {
            let mask = level == levels.count - 1 ? Self.folderMask : Self.ancestorMask
            guard case .success(let watch) = valueOrErrno({ inotify_add_watch(descriptor, path, mask) }) else { continue }
            watches[watch] = level
        }
    }

    /// Reads every event waiting; whether the folder's entries may have changed (an entry whose
    /// name starts with a dot, a writer's temporary file, does not count), or the folder or a
    /// folder above it came or went. An overflow of the kernel's queue counts as a change.
    public func changed() -> Bool {
        var changed = false
        var rewatch = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        let header = MemoryLayout<inotify_event>.size
        while case .success(let count) = retryingOnInterrupt({ read(descriptor, &buffer, buffer.count) }), count > 0 {
            var offset = 0
            while offset + header <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { bytes in
                    (
                        bytes.load(fromByteOffset: offset, as: Int32.self), bytes.load(fromByteOffset: offset + 4, as: UInt32.self),
                        Int(bytes.load(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let name = String(
                    decoding: buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }, as: UTF8.self)
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    (changed, rewatch) = (true, true)
                    continue
                }
                guard let level = watches[watch] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 {
                    // The watched folder itself went: its watch is over.
                    watches[watch] = nil
                    (changed, rewatch) = (true, true)
                } else if level == levels.count - 1 {
                    if !name.hasPrefix(".") { changed = true }
                } else if levels[level + 1].hasSuffix("/" + name) {
                    (changed, rewatch) = (true, true)
                }
            }
        }
        if rewatch { addWatches() }
        return changed
    }
}
