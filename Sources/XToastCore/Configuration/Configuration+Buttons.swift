extension Configuration {
    /// A button's label as `--button` and `--reply` take it: the message's rules (bounded, no
    /// control characters), and a word or two on one line (it is printed as one line of the
    /// answer: line breaks and tabs are spaces).
    static func buttonLabel(_ text: String, option: String = "button") throws(OptionError) -> String {
        let line = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        guard let label = try? MessageText.normalize(line), label.count <= 64 else {
            throw OptionError("invalid \(option) \"\(text)\": expected a label of 1 to 64 characters")
        }
        return label
    }

    /// The buttons the toast has: `--button`'s, and `--reply`'s last.
    var buttonCount: Int { buttons.count + (reply == nil ? 0 : 1) }

    /// The row of buttons as the toast shows it, and the reply entry's button in it.
    public var buttonRow: (labels: [String], reply: ReplyField?) {
        guard let reply else { return (buttons, nil) }
        return (
            buttons + [reply], ReplyField(button: buttons.count, placeholder: replyPlaceholder ?? ReplyField.defaultPlaceholder)
        )
    }
}
