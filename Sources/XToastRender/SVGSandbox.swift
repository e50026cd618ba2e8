import CCairo
import Glibc
import XToastCore
import XToastSystem

/// Draws an SVG document in a child process, bounded by the work it causes rather than by its
/// size: a compressed document (`.svgz`) or an image embedded as a `data:` URL, a few hundred
/// kilobytes on disk, expands to gigabytes; a long path or a heavy filter takes minutes of CPU;
/// and librsvg aborts the whole process on some documents. The child has a memory and a CPU
/// time limit and is killed at a deadline; it draws into memory shared with us, and what it
/// prints (librsvg's panics, Pango's warnings about an SVG's text) comes back as one line.
enum SVGSandbox {
    /// What one drawing may cost.
    struct Budget: Equatable, Sendable {
        /// Bytes of address space the child may add to what it starts with (ours).
        var memory: Int
        /// Seconds of CPU time (RLIMIT_CPU counts whole seconds).
        var cpuSeconds: Int
        /// Seconds of wall time, for a child that waits instead of working.
        var seconds: Double

        /// Real icons take milliseconds and a few megabytes: Adwaita's largest symbolic icons
        /// draw in under 20 ms at 128 px.
        static let standard = Budget(memory: 256 << 20, cpuSeconds: 2, seconds: 5)
    }

    /// A drawing: the image, and one line of what the child printed meanwhile, if anything.
    struct Drawing {
        var image: CairoSurface
        var chatter: String?
    }

    /// Where the child writes its verdict, before the pixels: a status word, then a message.
    private static let headerSize = 4096
    private enum Verdict: Int32 {
        case none = 0, drawn, failed
    }

    /// The last document drawn, its size and budget, and the drawing. The icon check at start-up
    /// and the toast's painter ask for the same drawing: one child draws it, not two. Icons are
    /// loaded on the main thread only.
    nonisolated(unsafe) private static var last: (bytes: [UInt8], size: Size, budget: Budget, drawing: Drawing)?

    /// Parses and draws `bytes` into a transparent image of `size` pixels, in a child (once for
    /// the same document, size and budget in a row).
    static func draw(_ bytes: [UInt8], size: Size, library: SVGLibrary, budget: Budget = .standard) throws(RenderError)
        -> Drawing
    {
        if let last, last.size == size, last.budget == budget, last.bytes == bytes { return last.drawing }
        let drawing = try drawInChild(bytes, size: size, library: library, budget: budget)
        last = (bytes, size, budget, drawing)
        return drawing
    }

    private static func drawInChild(_ bytes: [UInt8], size: Size, library: SVGLibrary, budget: Budget) throws(RenderError)
        -> Drawing
    {
        let width = max(size.width, 1)
        let height = max(size.height, 1)
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        let length = headerSize + stride * height
        guard let shared = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0), shared != MAP_FAILED
        else { throw RenderError(message: "cannot draw the SVG image: no memory to share with its drawing process") }
        defer { munmap(shared, length) }
        // Only the child may hold the writing end (its end of file is the child's end), never
        // a program started later: close-on-exec.
        let pipe: Pipe
        do throws(Errno) { pipe = try Pipe() } catch { throw RenderError(message: "cannot draw the SVG image: \(error)") }
        // Counted from before the child starts, as our own address space, which it inherits.
        let addressSpace = currentAddressSpace()
        // Only this thread lives on in the child: no other thread may hold a lock it needs.
        finishLoadingFonts()
        let pid: pid_t
        do throws(Errno) {
            guard case .parent(let child) = try ChildProcess.fork() else {
                close(pipe.read)
                drawInChild(
                    bytes, into: shared, width: width, height: height, stride: stride, output: pipe.write, library: library,
                    limits: (addressSpace.map { $0 + budget.memory }, budget.cpuSeconds))
            }
            pid = child
        } catch {
            pipe.close()
            throw RenderError(message: "cannot draw the SVG image: \(error)")
        }
        close(pipe.write)
        defer { close(pipe.read) }
        let (output, overdue) = collect(from: pipe.read, until: Clock.monotonic() + budget.seconds)
        if overdue { kill(pid, SIGKILL) }
        let ended = ChildProcess.wait(pid)
        let said = firstLine(output)
        let header = shared.assumingMemoryBound(to: Int32.self)
        let signal: Int32
        if case .signalled(let number) = ended { signal = number } else { signal = 0 }
        if overdue {
            throw RenderError(message: "drawing the SVG image took longer than \(Int(budget.seconds)) s", overBudget: true)
        }
        if signal == SIGKILL || signal == SIGXCPU {
            throw RenderError(message: "drawing the SVG image took more than \(budget.cpuSeconds) s of CPU time", overBudget: true)
        }
        if signal != 0 {
            // Most often a failed allocation (the memory bound), which Rust answers with abort().
            throw RenderError(
                message: "librsvg failed drawing the SVG image within \(budget.memory >> 20) MiB" + (said.map { ": \($0)" } ?? ""),
                overBudget: true)
        }
        let message = String(cString: UnsafeRawPointer(shared + 4).assumingMemoryBound(to: CChar.self))
        guard header.pointee == Verdict.drawn.rawValue else {
            throw RenderError(message: message.isEmpty ? "librsvg failed drawing the SVG image" + (said.map { ": \($0)" } ?? "") : message)
        }
        let image = try CairoSurface(imageOf: Size(width: width, height: height))
        cairo_surface_flush(image.pointer)
        guard let pixels = cairo_image_surface_get_data(image.pointer),
            Int(cairo_image_surface_get_stride(image.pointer)) == stride
        else { throw RenderError(message: "cannot draw the SVG image: no memory for its pixels") }
        memcpy(pixels, shared + headerSize, stride * height)
        cairo_surface_mark_dirty(image.pointer)
        return Drawing(image: image, chatter: said)
    }

    /// The child's part: limits, then librsvg; never returns. Only this thread lives on in the
    /// child, and it calls only what the parent had already loaded.
    private static func drawInChild(
        _ bytes: [UInt8], into shared: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, output: Int32,
        library: SVGLibrary, limits: (memory: Int?, cpuSeconds: Int)
    ) -> Never {
        // The crash handlers (Swift's backtracer) would print pages and take seconds: an abort
        // here is librsvg's answer to a failed allocation, told by the parent in one line.
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
        let header = shared.assumingMemoryBound(to: Int32.self)
        func finish(_ verdict: Verdict, _ message: String) -> Never {
            let bytes = Array(message.utf8.prefix(headerSize - 8)) + [0]
            for (offset, byte) in bytes.enumerated() { (shared + 4 + offset).storeBytes(of: byte, as: UInt8.self) }
            header.pointee = verdict.rawValue
            _exit(verdict == .drawn ? 0 : 1)
        }
        var error: UnsafeMutablePointer<GError>?
        let handle = bytes.withUnsafeBufferPointer { library.newFromData($0.baseAddress, gsize($0.count), &error) }
        guard let handle else { finish(.failed, "not an SVG image librsvg reads (\(take(error)))") }
        guard
            let surface = cairo_image_surface_create_for_data(
                (shared + headerSize).assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
                Int32(stride)),
            let cr = cairo_create(surface)
        else { finish(.failed, "cannot make a surface for the SVG image") }
        var viewport = xtoast_rsvg_rectangle(x: 0, y: 0, width: Double(width), height: Double(height))
        guard library.renderDocument(handle, cr, &viewport, &error) != 0 else {
            finish(.failed, "the SVG image cannot be drawn (\(take(error)))")
        }
        cairo_surface_flush(surface)
        finish(.drawn, "")
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
