import Glibc
import XToastCore
import XToastRender
import XToastSystem

/// A connected unix stream socket whose every wait ends at one deadline: a peer that is slow,
/// stuck or gone costs at most the time left, never more.
final class BoundedSocket {
    private let descriptor: Int32
    /// Monotonic seconds (`Clock.monotonic()`).
    let deadline: Double
    /// What arrived and was not taken yet.
    var received: [UInt8] = []

    private init(descriptor: Int32, deadline: Double) {
        self.descriptor = descriptor
        self.deadline = deadline
    }

    /// Connects to `address`; nil when nothing listens there (or the time is up).
    static func connect(to address: UnixSocketAddress, deadline: Double) -> BoundedSocket? {
        var storage = sockaddr_un()
        storage.sun_family = sa_family_t(AF_UNIX)
        let name: [UInt8]
        switch address {
        case .path(let path): name = Array(path.utf8) + [0]
        case .abstract(let abstract): name = [0] + Array(abstract.utf8)
        }
        guard name.count <= MemoryLayout.size(ofValue: storage.sun_path), let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)
        else { return nil }
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(pathOffset + name.count)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        // The owner from here on: the descriptor closes with it, whatever happens below.
        let connection = BoundedSocket(descriptor: descriptor, deadline: deadline)
        let status = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
        guard status != 0 else { return connection }
        // A unix socket connects at once or fails at once, unless its backlog is full.
        guard [.wouldBlock, .inProgress].contains(Errno.current), connection.wait(for: Int16(POLLOUT)) else { return nil }
        var failure: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size) == 0, failure == 0 else { return nil }
        return connection
    }

    deinit { close(descriptor) }

    /// Sends all of `bytes`; false when the peer went away or the time is up. MSG_NOSIGNAL: a
    /// closed peer must not end xtoast with SIGPIPE.
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let result = retryingOnInterrupt {
                bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            }
            switch result {
            case .success(let count) where count > 0: sent += count
            case .failure(.wouldBlock): guard wait(for: Int16(POLLOUT)) else { return false }
            case .success, .failure: return false
            }
        }
        return true
    }

    /// Waits for more bytes and appends them to `received`; false at the end of the stream, on
    /// an error, when `received` would pass `limit`, or when the time is up.
    func receiveMore(limit: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            switch retryingOnInterrupt({ chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) } }) {
            case .success(let count) where count > 0:
                guard received.count + count <= limit else { return false }
                received += chunk[0..<count]
                return true
            case .failure(.wouldBlock): guard wait(for: Int16(POLLIN)) else { return false }
            case .success, .failure: return false
            }
        }
    }

    /// Receives until `parse` finds a whole item at the start of `received`, which it takes;
    /// nil at the end of the stream, the deadline or on a parse error.
    func receive<T>(limit: Int, _ parse: (ArraySlice<UInt8>) throws -> (T, consumed: Int)?) -> T? {
        while true {
            do {
                if let (item, consumed) = try parse(received[...]) {
                    received.removeFirst(consumed)
                    return item
                }
            } catch {
                return nil
            }
            guard receiveMore(limit: limit) else { return nil }
        }
    }

    /// Polls for `events` until the deadline; true when they came.
    private func wait(for events: Int16) -> Bool {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        let ready = retryingOnInterrupt { () -> Int32 in
            // Each try waits only for what is left of the time.
            let left = deadline - Clock.monotonic()
            return left > 0 ? poll(&entry, 1, Int32((left * 1000).rounded(.up))) : 0
        }
        guard case .success(let count) = ready, count > 0 else { return false }
        return entry.revents & (events | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }
}
