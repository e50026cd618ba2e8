import CCairo

/// The stack that drawing needs. FreeType rasterizes glyphs with large buffers on the stack of
/// the thread that draws, and fontconfig parses its configuration on Pango's own thread, whose
/// stack glibc sizes from the same limit (`ulimit -s`): below about 160 KiB (measured with the
/// debug build) the process dies of SIGSEGV, without a word. Running main on a thread with a
/// larger stack does not do: its top-level code belongs to the main actor, which checks that it
/// runs on the main thread; so the main thread switches to a stack of its own instead.
public enum DrawingStack {
    /// About three times what a toast with an icon, a title, a bar and mixed scripts was
    /// measured to need, for fonts and images that need more.
    public static let minimum = 512 << 10
    /// The stack the program runs on when the limit is too low and cannot be raised: the usual
    /// default limit.
    static let replacement = 8 << 20

    /// Makes sure the program has `minimum` of stack: raises the soft limit when it is lower and
    /// the hard limit allows; else runs the program again from the start (`main`) on a stack of
    /// its own, and does not return. Throws when neither can be done. Call first thing in main.
    public static func ensure(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws(StackTooSmall) {
        let limit = xtoast_raise_stack_limit(UInt64(minimum))
        guard limit < UInt64(minimum) else { return }
        // Returns 0 in main's second run, on the new stack; -1 when there is none.
        if xtoast_run_main_with_stack(replacement, argc, argv) != 0 { throw StackTooSmall(limit: Int(limit)) }
    }
}

/// The stack size limit is below `DrawingStack.minimum`, cannot be raised, and no stack of its
/// own could be made (no memory for it).
public struct StackTooSmall: Error, CustomStringConvertible {
    /// The limit in bytes.
    public var limit: Int

    public var description: String {
        "the stack size limit is \(limit >> 10) KiB (ulimit -s) and no larger stack could be made: drawing a toast needs "
            + "at least \(DrawingStack.minimum >> 10) KiB"
    }
}
