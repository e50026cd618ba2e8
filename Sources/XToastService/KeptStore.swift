import Glibc
import XToastCore
import XToastSystem

/// The notifications kept after their toasts, on disk (`KeptNotifications` is the format): one
/// file per notification in `$XDG_RUNTIME_DIR/xtoast/kept`, written whole under a temporary name
/// and renamed into place, so that a reader (another service, `--list`) never sees half of one.
public struct KeptStore: Sendable {
    public let folder: String

    /// The store of this user's session (`$XDG_RUNTIME_DIR/xtoast/kept`).
    public init() { folder = "\(NotificationIDs.folder)/kept" }

    init(folder: String) { self.folder = folder }

    /// Makes the folder (the user's alone) if it is not there; why not, if it cannot be.
    func prepare() throws(SystemFailure) {
        for path in [NotificationIDs.folder, folder] where mkdir(path, 0o700) != 0 && Errno.current != .exists {
            throw SystemFailure("cannot make \(path)")
        }
    }

    /// Every notification the store holds that reads, in no order; at most
    /// `KeptNotifications.fileCountLimit` files are looked at.
    public func all() -> [Dispatcher.Notification] { names().compactMap(read) }

    /// The newest `count` notifications that read (the highest ids: ids only grow), and whether
    /// the store holds more: what a first frame shows before the rest is read.
    public func newest(_ count: Int) -> (notifications: [Dispatcher.Notification], more: Bool) {
        let ids = names().sorted(by: >)
        return (ids.prefix(count).compactMap(read), ids.count > count)
    }

    /// The ids of the notifications the store holds that read, in no order: `all()` without
    /// keeping them (each file is read and let go, so a long watch holds ids, not texts).
    public func ids() -> [UInt32] { names().filter { read($0) != nil } }

    /// The ids the store's file names say, at most `KeptNotifications.fileCountLimit`.
    private func names() -> [UInt32] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var found: [UInt32] = []
        while found.count < KeptNotifications.fileCountLimit, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let id = UInt32(name) { found.append(id) }
        }
        return found
    }

    /// The id up to which the kept notifications have been read (see
    /// `KeptNotifications.readMarkerName`); 0 when nothing was, or the marker does not read.
    public func readUpTo() -> UInt32 {
        let path = "\(folder)/\(KeptNotifications.readMarkerName)"
        guard let (bytes, truncated) = try? RegularFile.read(path, limit: 16), !truncated else { return 0 }
        return KeptNotifications.readMarker(bytes)
    }

    /// Moves the read marker to `id`; why not, if it could not be.
    public func markRead(upTo id: UInt32) throws(SystemFailure) {
        try replace(KeptNotifications.readMarkerName, with: KeptNotifications.readMarker(upTo: id))
    }

    /// Notification `id`, if the store holds it and it reads (and says it is `id`).
    public func read(_ id: UInt32) -> Dispatcher.Notification? {
        guard let (bytes, truncated) = try? RegularFile.read("\(folder)/\(id)", limit: KeptNotifications.fileByteLimit), !truncated,
            let notification = KeptNotifications.decode(bytes), notification.id == id
        else { return nil }
        return notification
    }

    /// Writes `notification` into the store; why not, if it could not be.
    func write(_ notification: Dispatcher.Notification) throws(SystemFailure) {
        try replace(String(notification.id), with: KeptNotifications.encode(notification))
    }

    /// Writes the file `name` of the store whole: under a temporary name (a dot's, which no
    /// reader takes for a notification), then renamed into place.
    func replace(_ name: String, with bytes: [UInt8]) throws(SystemFailure) {
        try prepare()
        let path = "\(folder)/\(name)"
        let temporary = "\(folder)/.\(name)-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemFailure("cannot write \(temporary)") }
        let written = Descriptor.writeAll(fd, bytes)
        close(fd)
        guard written, rename(temporary, path) == 0 else {
            let failure = SystemFailure("cannot write \(path)")
            unlink(temporary)
            throw failure
        }
    }

    /// Removes notification `id` from the store (gone already is no error).
    func remove(_ id: UInt32) { unlink("\(folder)/\(id)") }
}
