import CSystem
import Glibc

/// Plays a sound through the desktop's sound stack, libcanberra (the freedesktop sound theme by
/// name, or a file), found with `dlopen` the first time a sound is asked for: a toast without
/// one never loads it. Playing is asynchronous (libcanberra's own thread streams it to the sound
/// server); the toast goes on at once.
public final class SoundPlayer: @unchecked Sendable {  // used from the main thread only
    /// The soname Debian's libcanberra0 installs.
    static let soname = "libcanberra.so.0"
    /// A sound file larger than this is not played: a sound that announces a toast is short.
    public static let fileByteLimit = 16 << 20

    private let context: UnsafeMutableRawPointer
    private let proplistCreate: xtoast_ca_proplist_create
    private let proplistDestroy: xtoast_ca_proplist_destroy
    private let proplistSets: xtoast_ca_proplist_sets
    private let playFull: xtoast_ca_context_play_full
    private let strerror: xtoast_ca_strerror

    /// Why a sound does not play, in words for the user.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The player of this process, made at the first sound.
    nonisolated(unsafe) private static var opened: Result<SoundPlayer, Failure>?

    /// The player, or why there is none (the library is missing or lacks a function).
    public static func shared() -> Result<SoundPlayer, Failure> {
        if let opened { return opened }
        let result = Result { () throws(Failure) in try SoundPlayer() }
        opened = result
        return result
    }

    /// Whether sounds can play here at all (the library loads): the notification service says
    /// `sound` among its capabilities only then.
    public static var canPlay: Bool { if case .success = shared() { true } else { false } }

    private init() throws(Failure) {
        // RTLD_LOCAL: its symbols (and those of what it loads) do not take the place of ours.
        guard let library = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw Failure(description: "sounds need libcanberra (\(Self.soname), Debian's libcanberra0): \(reason)")
        }
        let names = [
            "ca_context_create", "ca_proplist_create", "ca_proplist_destroy", "ca_proplist_sets", "ca_context_play_full",
            "ca_strerror",
        ]
        let found = names.compactMap { dlsym(library, $0) }
        guard found.count == names.count else {
            dlclose(library)
            throw Failure(description: "\(Self.soname) lacks some of libcanberra's functions")
        }
        let create = unsafeBitCast(found[0], to: xtoast_ca_context_create.self)
        proplistCreate = unsafeBitCast(found[1], to: xtoast_ca_proplist_create.self)
        proplistDestroy = unsafeBitCast(found[2], to: xtoast_ca_proplist_destroy.self)
        proplistSets = unsafeBitCast(found[3], to: xtoast_ca_proplist_sets.self)
        playFull = unsafeBitCast(found[4], to: xtoast_ca_context_play_full.self)
        strerror = unsafeBitCast(found[5], to: xtoast_ca_strerror.self)
        var context: UnsafeMutableRawPointer?
        let status = create(&context)
        guard status == 0, let context else {
            throw Failure(description: "cannot start libcanberra: \(Self.words(strerror, status))")
        }
        self.context = context
    }

    /// Starts playing `sound` (`name`: the theme's event id, else `path`); why not, if it cannot.
    public func play(name: String?, path: String?, description: String) throws(Failure) {
        if let path { try Self.check(path) }
        var list: UnsafeMutableRawPointer?
        guard proplistCreate(&list) == 0, let list else { throw Failure(description: "cannot play \"\(description)\"") }
        defer { _ = proplistDestroy(list) }
        _ = proplistSets(list, "application.name", "xtoast")
        _ = proplistSets(list, "event.description", "A toast")
        if let name { _ = proplistSets(list, "event.id", name) }
        if let path { _ = proplistSets(list, "media.filename", path) }
        let status = playFull(context, 0, list, nil, nil)
        guard status == 0 else { throw Failure(description: "cannot play \"\(description)\": \(Self.words(strerror, status))") }
    }

    /// libcanberra's words for `status`.
    private static func words(_ strerror: xtoast_ca_strerror, _ status: Int32) -> String {
        strerror(status).map { String(cString: $0) } ?? "error \(status)"
    }

    /// A file to play must be a regular file of a sound's size: a FIFO would hold libcanberra's
    /// thread for ever, a gigabyte its memory.
    private static func check(_ path: String) throws(Failure) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw Failure(description: "cannot play \"\(path)\": \(Errno.current)") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw Failure(description: "cannot play \"\(path)\": not a regular file") }
        guard status.st_size <= fileByteLimit else {
            throw Failure(description: "cannot play \"\(path)\": larger than \(fileByteLimit >> 20) MiB")
        }
    }
}
