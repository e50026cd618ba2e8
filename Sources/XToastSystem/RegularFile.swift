import Glibc

/// Reads the files a user names (a config file, an icon) or another client names for them (an
/// X resource): regular files only, never more than a limit. A FIFO or a terminal would block
/// the read for ever, and a device such as /dev/zero never ends.
public enum RegularFile {
    /// Why a file could not be read, in words for the user.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
        /// The error of a failed call, nil for a file of the wrong kind.
        public var cause: Errno?
    }

    /// The first `limit` bytes of the regular file at `path` (a leading `~/` is the home folder),
    /// and whether there was more.
    public static func read(_ path: String, limit: Int) throws(Failure) -> (bytes: [UInt8], truncated: Bool) {
        let path = expandingHome(path)
        // Looked at before opening, so that opening has no side effect on a device; checked
        // again on the descriptor, which is what is read.
        var status = stat()
        guard stat(path, &status) == 0 else { throw Failure(.current) }
        if let kind = kind(status.st_mode) { throw Failure(description: "\(kind), not a regular file") }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(.current) }
        defer { close(fd) }
        guard fstat(fd, &status) == 0 else { throw Failure(.current) }
        if let kind = kind(status.st_mode) { throw Failure(description: "\(kind), not a regular file") }

        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        // One byte past the limit tells whether the file is longer.
        while bytes.count <= limit {
            let wanted = min(buffer.count, limit + 1 - bytes.count)
            let count: Int
            switch retryingOnInterrupt({ Glibc.read(fd, &buffer, wanted) }) {
            case .success(let read): count = read
            case .failure(let failure): throw Failure(failure)
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        let truncated = bytes.count > limit
        if truncated { bytes.removeLast(bytes.count - limit) }
        return (bytes, truncated)
    }

    /// `path` with a leading `~/` replaced by `$HOME/`: shells leave `--icon=~/x.png` and
    /// config values alone.
    public static func expandingHome(_ path: String) -> String {
        guard path.hasPrefix("~/"), let home = Environment.value("HOME") else { return path }
        return home + path.dropFirst()
    }

    /// What a file of `mode` is, in words ("a FIFO"), nil for a regular file.
    public static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "an unknown kind of file"
        }
    }

}

extension RegularFile.Failure {
    init(description: String) { self.init(description: description, cause: nil) }

    init(_ cause: Errno) { self.init(description: cause.description, cause: cause) }
}
