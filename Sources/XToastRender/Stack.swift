import CCairo

/// The stack that drawing needs. FreeType rasterizes glyphs with large buffers on the stack of
/// the thread that draws, and fontconfig parses its configuration on Pango's own thread, whose
/// stack glibc sizes from the same limit (`ulimit -s`): below about 160 KiB (measured with the
/// debug build) the process dies of SIGSEGV, without a word.
public enum DrawingStack {
    /// About three times what a toast with an icon, a title, a bar and mixed scripts was
    /// measured to need, for fonts and images that need more.
    public static let minimum = 512 << 10

    /// Raises the soft stack limit to `minimum` when it is lower and the hard limit allows;
    /// throws when it cannot. Call before the first drawing and before `startLoadingFonts`.
    public static func ensure() throws(StackTooSmall) {
        let limit = xtoast_raise_stack_limit(UInt64(minimum))
        if limit < UInt64(minimum) { throw StackTooSmall(limit: Int(limit)) }
    }
}

/// The stack size limit is below `DrawingStack.minimum` and cannot be raised.
public struct StackTooSmall: Error, CustomStringConvertible {
    /// The limit in bytes.
    public var limit: Int

    public var description: String {
        "the stack size limit is \(limit >> 10) KiB (ulimit -s): drawing a toast needs at least \(DrawingStack.minimum >> 10) KiB"
    }
}
