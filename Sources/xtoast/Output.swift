import Glibc
import XToastRender
import XToastSystem

/// The process's standard descriptors and standard output, made safe before anything else runs.
enum Output {
    /// Puts a placeholder on each of descriptors 0–2 that the caller left closed (`xtoast <&-`).
    /// Otherwise the next descriptor opened takes its number: the X connection would become
    /// "standard input" (and `--detach` would close it), or our output would go into the
    /// protocol. The placeholder opens /dev/null the wrong way round, so reading or writing it
    /// still fails with EBADF as the closed descriptor did (lost output is reported, see
    /// `write`); close-on-exec keeps it closed for a `--run` command, as the caller meant.
    static func occupyClosedStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && Errno.current == .badDescriptor {
            // open takes the lowest free number: this one, as those below it are open by now.
            let placeholder = open("/dev/null", (descriptor == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
            if placeholder >= 0 && placeholder != descriptor { close(placeholder) }
        }
    }

    /// Points standard error at /dev/null; the descriptor it was, to give back with
    /// `restoreStandardError` (nil: it could not be kept, and is left as it was).
    static func silenceStandardError() -> Int32? {
        let kept = fcntl(2, F_DUPFD_CLOEXEC, 3)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard kept >= 0, null >= 0, dup2(null, 2) == 2 else {
            if kept >= 0 { close(kept) }
            if null >= 0 { close(null) }
            return nil
        }
        close(null)
        return kept
    }

    static func restoreStandardError(_ kept: Int32) {
        dup2(kept, 2)
        close(kept)
    }

    /// What a reader that went away means.
    enum LostReader {
        /// One line and status 1: the output was what the caller asked for.
        case fails
        /// Nothing: the reader was the notification service, which may have left (its bus gone);
        /// the toast is still the user's.
        case isQuiet
    }

    nonisolated(unsafe) static var lostReader = LostReader.fails

    /// Writes `text` whole to standard output; the one way xtoast prints there. print() drops
    /// write errors, and a full disk, a closed descriptor or a reader that went away must not
    /// end in status 0 with the output lost: it is one line and status 1.
    static func write(_ text: String) throws(CommandError) {
        let failure = written(text)
        if failure == Errno(EPIPE), lostReader == .isQuiet { return }
        if let failure { throw .failure("cannot write to standard output: \(failure)") }
    }

    /// Writes `text` whole to standard output; why not, if it could not be (EPIPE: the reader
    /// went away, SIGPIPE being ignored).
    static func written(_ text: String) -> Errno? {
        var text = text
        return text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return nil }
            var done = 0
            while done < bytes.count {
                switch retryingOnInterrupt({ Glibc.write(1, start + done, bytes.count - done) }) {
                case .success(let count) where count > 0:
                    done += count
                case .success:
                    return .ioError
                case .failure(.wouldBlock):
                    // A non-blocking descriptor from the caller: wait until the reader takes more.
                    var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                case .failure(let failure):
                    // SIGPIPE is ignored (main): a reader that went away is EPIPE here.
                    return failure
                }
            }
            return nil
        }
    }
}
