import CCairo
import Glibc
import XToastCore
import XToastSystem

/// Draws a picture in a child process, bounded by the work it causes rather than by its size: a
/// compressed SVG (`.svgz`) or an image embedded as a `data:` URL, a few hundred kilobytes on
/// disk, expands to gigabytes; a long path or a heavy filter takes minutes of CPU; a JPEG of a
/// few kilobytes can declare 65000×65000 pixels; and librsvg or an image loader aborts the whole
/// process on some files. The child has a memory and a CPU time limit and is killed at a
/// deadline; it draws into memory shared with us, and what it prints (librsvg's panics, Pango's
/// warnings about an SVG's text) comes back as one line.
enum ImageSandbox {
    /// What one drawing may cost.
    struct Budget: Equatable, Sendable {
        /// Bytes of address space the child may add to what it starts with (ours).
        var memory: Int
        /// Seconds of CPU time (RLIMIT_CPU counts whole seconds).
        var cpuSeconds: Int
        /// Seconds of wall time, for a child that waits instead of working.
        var seconds: Double

        /// Real icons take milliseconds and a few megabytes: Adwaita's largest symbolic icons
        /// draw in under 20 ms at 128 px, and a 12-megapixel photo decodes at an eighth of its
        /// size (libjpeg's own scaling) in about as long.
        static let standard = Budget(memory: 256 << 20, cpuSeconds: 2, seconds: 5)
    }

    /// A drawing: the image, and one line of what the child printed meanwhile, if anything.
    struct Drawing {
        var image: CairoSurface
        var chatter: String?
    }

    /// Where the child draws: premultiplied ARGB32 pixels, at most `size`, rows `stride` bytes
    /// apart, in memory shared with the parent.
    struct Canvas {
        let pixels: UnsafeMutableRawPointer
        let size: Size
        let stride: Int
        fileprivate let header: UnsafeMutableRawPointer

        /// Ends the child with `message` as its failure: for a library's callback, which has no
        /// way to stop the work it is called from.
        func fail(_ message: String) -> Never { ImageSandbox.finish(header, .failed, size: nil, message) }
    }

    /// One picture to draw: what it is called in messages, by what, from which bytes, at most
    /// how large, and the drawing itself, which runs in the child and says how much of the
    /// canvas (from its top-left corner) it filled, or why it could not.
    struct Job {
        /// "the SVG image", "the JPEG image".
        var image: String
        /// "librsvg", "gdk-pixbuf".
        var library: String
        var bytes: [UInt8]
        var size: Size
        var budget: Budget
        var draw: (Canvas) -> Result<Size, Failure>
    }

    /// Why the child could not draw, in words for the one warning.
    struct Failure: Error {
        var message: String
    }

    /// Where the child writes its verdict, before the pixels: a status word, the size drawn,
    /// then a message.
    private static let headerSize = 4096
    private static let messageOffset = 16
    fileprivate enum Verdict: Int32 {
        case none = 0, drawn, failed
    }

    /// The last picture drawn (its kind, bytes, size and budget) and the drawing. The icon check
    /// at start-up and the toast's painter ask for the same drawing: one child draws it, not
    /// two. Icons are loaded on the main thread only.
    nonisolated(unsafe) private static var last: (key: Key, drawing: Drawing)?

    private struct Key: Equatable {
        var image: String
        var bytes: [UInt8]
        var size: Size
        var budget: Budget
    }

    /// Runs `job` in a child (once for the same picture, size and budget in a row).
    static func draw(_ job: Job) throws(RenderError) -> Drawing {
        let key = Key(image: job.image, bytes: job.bytes, size: job.size, budget: job.budget)
        if let last, last.key == key { return last.drawing }
        let drawing = try drawInChild(job)
        last = (key, drawing)
        return drawing
    }

    private static func drawInChild(_ job: Job) throws(RenderError) -> Drawing {
        let canvas = Size(width: max(job.size.width, 1), height: max(job.size.height, 1))
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(canvas.width)))
        let length = headerSize + stride * canvas.height
        guard let shared = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0), shared != MAP_FAILED
        else { throw RenderError(message: "cannot draw \(job.image): no memory to share with its drawing process") }
        defer { munmap(shared, length) }
        // Counted from before the child starts, as our own address space, which it inherits.
        let addressSpace = currentAddressSpace()
        // Only this thread lives on in the child: no other thread may hold a lock it needs.
        finishLoadingFonts()
        // Only the child holds the writing end (its end of file is the child's end).
        let pid: pid_t
        let output: Int32
        do throws(Errno) {
            switch try ChildProcess.fork(pipes: [.fromChild]) {
            case .child(let ends):
                let target = Canvas(pixels: shared + headerSize, size: canvas, stride: stride, header: shared)
                runInChild(job, on: target, output: ends[0], limits: (addressSpace.map { $0 + job.budget.memory }, job.budget.cpuSeconds))
            case .parent(let child, let ends): (pid, output) = (child, ends[0])
            }
        } catch {
            throw RenderError(message: "cannot draw \(job.image): \(error)")
        }
        defer { close(output) }
        let (chatter, overdue) = collect(from: output, until: Clock.monotonic() + job.budget.seconds)
        if overdue { kill(pid, SIGKILL) }
        let ended = ChildProcess.wait(pid)
        let said = firstLine(chatter)
        try check(ended, overdue: overdue, said: said, job: job)
        let header = shared.assumingMemoryBound(to: Int32.self)
        let message = String(cString: UnsafeRawPointer(shared + messageOffset).assumingMemoryBound(to: CChar.self))
        guard header.pointee == Verdict.drawn.rawValue else {
            throw RenderError(
                message: message.isEmpty ? "\(job.library) failed drawing \(job.image)" + (said.map { ": \($0)" } ?? "") : message)
        }
        let drawn = Size(width: Int(header[1]), height: Int(header[2]))
        guard (1...canvas.width).contains(drawn.width), (1...canvas.height).contains(drawn.height) else {
            throw RenderError(message: "\(job.library) drew \(job.image) at \(drawn.width)x\(drawn.height), not within its canvas")
        }
        let image = try CairoSurface(imageOf: drawn)
        cairo_surface_flush(image.pointer)
        guard let pixels = cairo_image_surface_get_data(image.pointer) else {
            throw RenderError(message: "cannot draw \(job.image): no memory for its pixels")
        }
        let imageStride = Int(cairo_image_surface_get_stride(image.pointer))
        for row in 0..<drawn.height {
            memcpy(pixels + row * imageStride, shared + headerSize + row * stride, drawn.width * 4)
        }
        cairo_surface_mark_dirty(image.pointer)
        return Drawing(image: image, chatter: said)
    }

    /// Throws when the child went past its budget: killed at the deadline, out of CPU time, or
    /// ended by a signal (most often an abort on a failed allocation, the memory bound).
    private static func check(_ ended: WaitStatus?, overdue: Bool, said: String?, job: Job) throws(RenderError) {
        let signal: Int32
        if case .signalled(let number) = ended { signal = number } else { signal = 0 }
        if overdue {
            throw RenderError(message: "drawing \(job.image) took longer than \(Int(job.budget.seconds)) s", overBudget: true)
        }
        if signal == SIGKILL || signal == SIGXCPU {
            throw RenderError(message: "drawing \(job.image) took more than \(job.budget.cpuSeconds) s of CPU time", overBudget: true)
        }
        if signal != 0 {
            // Rust (librsvg) answers a failed allocation with abort(), GLib (gdk-pixbuf) too.
            throw RenderError(
                message: "\(job.library) failed drawing \(job.image) within \(job.budget.memory >> 20) MiB"
                    + (said.map { ": \($0)" } ?? ""),
                overBudget: true)
        }
    }

    /// The child's part: limits, then the job's drawing; never returns. Only this thread lives
    /// on in the child, and it calls what the parent had already loaded (an image loader may
    /// still open its format's module).
    private static func runInChild(_ job: Job, on canvas: Canvas, output: Int32, limits: (memory: Int?, cpuSeconds: Int)) -> Never {
        // The crash handlers (Swift's backtracer) would print pages and take seconds: an abort
        // here is the library's answer to a failed allocation, told by the parent in one line.
        for signal in [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGXCPU] { Glibc.signal(signal, SIG_DFL) }
        var all = sigset_t()
        sigemptyset(&all)
        sigprocmask(SIG_SETMASK, &all, nil)
        alarm(0)
        var limit = rlimit(rlim_cur: rlim_t(limits.cpuSeconds), rlim_max: rlim_t(limits.cpuSeconds))
        // Soft and hard alike: at the limit the kernel sends SIGKILL, which nothing catches.
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
        if let memory = limits.memory {
            limit = rlimit(rlim_cur: rlim_t(memory), rlim_max: rlim_t(memory))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        }
        limit = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit)
        dup2(output, 1)
        dup2(output, 2)
        switch job.draw(canvas) {
        case .success(let drawn): finish(canvas.header, .drawn, size: drawn, "")
        case .failure(let failure): finish(canvas.header, .failed, size: nil, failure.message)
        }
    }

    /// Writes the verdict into the header and ends the child.
    fileprivate static func finish(_ header: UnsafeMutableRawPointer, _ verdict: Verdict, size: Size?, _ message: String) -> Never {
        let bytes = Array(message.utf8.prefix(headerSize - messageOffset - 1)) + [0]
        for (offset, byte) in bytes.enumerated() { (header + messageOffset + offset).storeBytes(of: byte, as: UInt8.self) }
        let words = header.assumingMemoryBound(to: Int32.self)
        words[1] = Int32(clamping: size?.width ?? 0)
        words[2] = Int32(clamping: size?.height ?? 0)
        words[0] = verdict.rawValue
        _exit(verdict == .drawn ? 0 : 1)
    }

    /// What the child prints, up to a few kilobytes (the rest is read and dropped so that it
    /// never blocks on a full pipe), until it closes its end or the deadline passes.
    private static func collect(from descriptor: Int32, until deadline: Double) -> (output: [UInt8], overdue: Bool) {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard Descriptor.waitReadable(descriptor, until: deadline) else { return (output, true) }
            switch retryingOnInterrupt({ read(descriptor, &buffer, buffer.count) }) {
            case .success(0): return (output, false)
            case .success(let count): if output.count < 4096 { output += buffer[0..<count] }
            case .failure(let error): if error != .wouldBlock { return (output, false) }
            }
        }
    }

    /// The first line with words in it, made safe for a terminal; nil when there is none.
    /// GLib's `(process:123): Pango-WARNING **: 12:00:00.000: ` becomes `Pango-WARNING: `.
    static func firstLine(_ output: [UInt8]) -> String? {
        let lines = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard var line = lines.first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        if line.hasPrefix("("), let end = line.firstIndex(of: ")") {
            let rest = line[line.index(after: end)...].drop { $0 == ":" || $0 == " " }
            if let stars = rest.firstIndex(of: "*") {
                let words = rest[stars...].drop { $0 == "*" || $0 == ":" || $0 == " " }
                // The time stamp, when there is one: digits, colons and a dot.
                let time = words.prefix { $0.isNumber || $0 == ":" || $0 == "." }
                var domain = rest[..<stars]
                while domain.last == " " { domain.removeLast() }
                line = domain + ": " + words.dropFirst(time.count).drop { $0 == " " }
            }
        }
        return TerminalText.line(String(line.prefix(300)))
    }

    /// The size of our address space in bytes, from /proc/self/statm (nil when unreadable).
    private static func currentAddressSpace() -> Int? {
        guard let file = try? RegularFile.read("/proc/self/statm", limit: 256), let pages = file.bytes.split(separator: 32).first
        else { return nil }
        return Int(String(decoding: pages, as: UTF8.self)).map { $0 * Int(sysconf(Int32(_SC_PAGESIZE))) }
    }

    /// The message of a GError, which it frees, on one line.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        // libxml2's messages end with a newline; the user gets one line.
        let message = error.pointee.message.map { String(cString: $0) } ?? "no reason given"
        return String(message.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
