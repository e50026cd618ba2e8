/// An inline reply (`--reply`, the notification spec's `inline-reply` action): a button whose
/// click turns the button row into a one-line text entry. Only then does the toast take the
/// keyboard; Enter sends what was typed (the toast ends `.replied` with it), Escape gives the
/// keyboard back and the toast goes on as it was. While the entry is open the toast's time
/// stands still; an entry left alone for `ReplyDraft.idleLimit` closes by itself, so that a
/// screen locker started meanwhile can take the keyboard.
public struct ReplyField: Equatable, Sendable {
    /// Which of the content's buttons opens the entry.
    public var button: Int
    /// What the empty entry shows, faint.
    public var placeholder: String

    public init(button: Int, placeholder: String) {
        (self.button, self.placeholder) = (button, placeholder)
    }

    /// The placeholder when none is given.
    public static let defaultPlaceholder = "Reply…"
}

/// The text typed into an open reply entry.
public struct ReplyDraft: Equatable, Sendable {
    public internal(set) var text = ""
    /// When a key last came (monotonic seconds): the entry closes `idleLimit` after it.
    public internal(set) var lastKey: Double

    /// The longest reply, in characters: a line of chat, bounded whatever is typed or pasted.
    public static let limit = 2000
    /// Seconds an open entry waits for a key before it closes by itself (and gives the
    /// keyboard back).
    public static let idleLimit = 60.0

    init(at now: Double) { lastKey = now }

    /// The draft after `key`; nil for the keys that end it (`send`, `cancel`), which the
    /// session answers itself.
    mutating func apply(_ key: ReplyKey, at now: Double) {
        lastKey = now
        switch key {
        case .text(let typed):
            // One line of printable text: what a key or a paste gives, without control
            // characters (a line break would end the answer's line early).
            let printable = typed.filter { character in
                !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
            }
            text += printable.prefix(max(Self.limit - text.count, 0))
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .deleteWord:
            // Ctrl-W, as terminals and GTK entries have it: the spaces before the caret, then the word.
            while text.last?.isWhitespace == true { text.removeLast() }
            while let last = text.last, !last.isWhitespace { text.removeLast() }
        case .send, .cancel:
            break
        }
    }

    /// What is sent: the text without leading and trailing spaces; nil when nothing is left.
    var reply: String? {
        let trimmed = text.trimmingWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// A key typed into an open reply entry, as the X side reads it.
public enum ReplyKey: Equatable, Sendable {
    /// The text a key (or a compose sequence) gives.
    case text(String)
    case backspace
    /// Ctrl-W, Ctrl-Backspace.
    case deleteWord
    /// Enter.
    case send
    /// Escape.
    case cancel
}

extension ReplyKey {
    /// A key pressed in the entry: its keysym, whether Control was held, and the text the input
    /// method gave for it (empty: none). Nil for keys the entry does not take (arrows, function
    /// keys, other Control chords).
    public init?(keysym: UInt, control: Bool, text: String) {
        switch keysym {
        case 0xff0d, 0xff8d: self = .send  // Return, KP_Enter
        case 0xff1b: self = .cancel  // Escape
        case 0xff08: self = control ? .deleteWord : .backspace  // BackSpace
        case 0x77 where control, 0x57 where control: self = .deleteWord  // Ctrl-W
        default:
            let typed = text.isEmpty ? Self.character(ofKeysym: keysym).map(String.init) ?? "" : text
            guard !control, !typed.isEmpty else { return nil }
            self = .text(typed)
        }
    }

    /// The character a keysym stands for where no input method says it: Latin-1's keysyms are
    /// their code points, and `0x1000000 + U` is code point U (as `xdotool type` maps keys).
    static func character(ofKeysym keysym: UInt) -> Character? {
        let code: UInt
        switch keysym {
        case 0x20...0x7e, 0xa0...0xff: code = keysym
        case 0x100_0100...0x110_ffff: code = keysym - 0x100_0000
        default: return nil
        }
        return UnicodeScalar(UInt32(code)).map(Character.init)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var characters = Substring(self)
        while characters.first?.isWhitespace == true { characters.removeFirst() }
        while characters.last?.isWhitespace == true { characters.removeLast() }
        return String(characters)
    }
}

extension Session {
    /// The events of an inline reply: its button's click opens the entry and asks for the
    /// keyboard; keys change the draft; Enter ends the toast with the reply; Escape, a keyboard
    /// that cannot be had, a lock or the idle limit close it again.
    mutating func reply(_ event: Event, at now: Double) -> [Effect] {
        guard var showing, showing.presentation != nil else { return [] }
        switch event {
        case .click(.button(let index)) where index == content.reply?.button:
            // Never over a locked screen, and never a second time.
            guard showing.reply == nil, !showing.underLock else { return [] }
            let draft = ReplyDraft(at: now)
            let frozen = freeze(.replying(draft), at: now)
            return [.takeKeyboard, .editReply(draft)] + (frozen.isEmpty ? redraw(at: now) : frozen)
        case .keyboard(taken: false):
            return closeReply(at: now)
        case .key(.send):
            guard let text = showing.reply?.reply else { return [] }
            return [.releaseKeyboard] + end(.replied(text))
        case .key(.cancel):
            return closeReply(at: now)
        case .key(let key):
            guard var draft = showing.reply else { return [] }
            draft.apply(key, at: now)
            showing.reply = draft
            phase = .showing(showing)
            return [.editReply(draft)] + redraw(at: now)
        default:
            return []
        }
    }

    /// The entry closes: the keyboard goes back, the buttons show again and the time goes on.
    mutating func closeReply(at now: Double) -> [Effect] {
        guard showing?.reply != nil else { return [] }
        let thawed = thaw(.replying(nil), at: now)
        return [.releaseKeyboard, .editReply(nil)] + (thawed.isEmpty ? redraw(at: now) : thawed)
    }

    /// An entry left alone for `ReplyDraft.idleLimit` closes by itself.
    mutating func replyIdle(at now: Double) -> [Effect] {
        guard let draft = showing?.reply, now >= draft.lastKey + ReplyDraft.idleLimit else { return [] }
        return closeReply(at: now)
    }
}
