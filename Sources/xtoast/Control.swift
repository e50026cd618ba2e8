import XToastCore
import XToastX11

/// The control surface for keybindings and status bars (`--press`): commands that act on the
/// toasts of the display, through the queue's tickets, without grabbing a key.
enum Control {
    /// `--press [LABEL]`: clicks the toast on screen, or its button LABEL (the words after the
    /// option, joined as a message's are). Status 1 when no toast on screen has it.
    static func press(_ words: [String], display: XDisplay) throws(CommandError) -> Int32 {
        let label = words.isEmpty ? nil : MessageText.join(words)
        let queue = display.liveTickets(in: display.readQueue()).map { (UInt($0.0), $0.1) }
        let stack = display.liveTickets(in: display.readList(display.atoms.stack)).map { (UInt($0.0), $0.1) }
        guard let target = Press.target(label: label, queue: queue, stack: stack) else {
            throw .failure(label.map { "no toast on screen has a button \"\($0)\"" } ?? "no toast on screen")
        }
        display.press(target)
        return ExitStatus.success
    }
}
