import Testing

@testable import XToastCore

/// The inline reply (`--reply`): the entry opens on its button, takes the keyboard only then,
/// and stops the toast's time; Enter ends the toast with the reply, Escape goes back.
@Suite("Session machine: inline reply")
struct SessionReplyTests {
    /// A toast with a button "Later" and a reply button after it (button 1), held 2 s.
    static func plan() -> Session.Plan {
        var content = ToastContent(message: "Lunch at one?", buttons: ["Later", "Reply"])
        content.reply = ReplyField(button: 1, placeholder: "Answer…")
        return SessionTests.plan(hold: 2, content: content)
    }

    /// On screen at 0.5 s, its entry opened.
    static func opened() -> VirtualSession {
        var v = VirtualSession(plan())
        v.send(.start)
        v.advance(to: 0.5)
        return v
    }

    static func type(_ text: String, into v: inout VirtualSession) {
        for character in text { v.send(.key(.text(String(character)))) }
    }

    @Test("Its button opens the entry: the keyboard is taken, the row drawn as the entry, the time stops")
    func opens() {
        var v = Self.opened()
        let effects = v.send(.click(.button(1)))
        #expect(effects.prefix(2) == [.takeKeyboard, .editReply(ReplyDraft(at: 0.5))])
        #expect(effects.contains { if case .present = $0 { true } else { false } })
        #expect(v.session.showing?.reply?.text == "")
        // Frozen: long past its 2 s it is still there, waiting for the reply.
        v.advance(to: 30)
        #expect(v.session.outcome == nil)
    }

    @Test("The pointer that clicked Reply may leave while the user types: the time still stands")
    func pointerLeavesWhileTyping() {
        var v = Self.opened()
        v.send(.hover(.entered))
        v.send(.click(.button(1)))
        v.send(.hover(.left))
        v.advance(to: 30)
        #expect(v.session.outcome == nil)
        v.send(.key(.cancel))
        #expect(v.runToEnd() == .expired)
    }

    @Test("Keys type; Enter ends the toast with the reply, trimmed, and gives the keyboard back")
    func sends() {
        var v = Self.opened()
        v.send(.click(.button(1)))
        Self.type("  See you", into: &v)
        v.send(.key(.backspace))
        Self.type("u there ", into: &v)
        #expect(v.session.showing?.reply?.text == "  See you there ")
        #expect(v.send(.key(.send)) == [.releaseKeyboard, .finish(.replied("See you there"))])
        #expect(v.session.outcome == .replied("See you there"))
    }

    @Test("Enter with nothing typed sends nothing; the entry stays")
    func emptySendsNothing() {
        var v = Self.opened()
        v.send(.click(.button(1)))
        Self.type("   ", into: &v)
        #expect(v.send(.key(.send)).isEmpty)
        #expect(v.session.outcome == nil && v.session.showing?.reply != nil)
    }

    @Test("Escape closes the entry: the keyboard goes back, the buttons show, the time goes on from where it stopped")
    func cancels() {
        var v = Self.opened()
        v.send(.click(.button(1)))
        Self.type("hm", into: &v)
        v.advance(to: 10)
        let effects = v.send(.key(.cancel))
        #expect(effects.prefix(2) == [.releaseKeyboard, .editReply(nil)])
        #expect(v.session.showing?.reply == nil)
        // 0.5 s of its time had passed: it expires about 1.7 s later (the rest of its hold and its fade).
        #expect(v.runToEnd() == .expired)
        #expect(v.now > 11 && v.now < 13)
    }

    @Test("A keyboard another program holds closes the entry again")
    func keyboardRefused() {
        var v = Self.opened()
        v.keyboardFree = false
        let effects = v.send(.click(.button(1)))
        #expect(effects.contains(.releaseKeyboard) && effects.contains(.editReply(nil)))
        #expect(v.session.showing?.reply == nil)
        #expect(v.runToEnd() == .expired)
    }

    @Test("An entry left alone closes after its idle limit; each key starts it again")
    func idleLimit() {
        var v = Self.opened()
        v.send(.click(.button(1)))
        v.advance(to: 0.5 + ReplyDraft.idleLimit - 1)
        v.send(.key(.text("a")))
        v.advance(to: 0.5 + ReplyDraft.idleLimit + 1)
        #expect(v.session.showing?.reply != nil)
        let closed = v.advance(to: 0.5 + 2 * ReplyDraft.idleLimit)
        #expect(closed.contains(.releaseKeyboard))
        #expect(v.session.showing?.reply == nil)
    }

    @Test("A locker coming gets the keyboard: the entry closes before the toast goes under it")
    func lockClosesTheEntry() {
        var v = Self.opened()
        v.send(.click(.button(1)))
        v.locked = true
        let effects = v.send(.lockChanged)
        let release = effects.firstIndex(of: .releaseKeyboard)
        let withdraw = effects.firstIndex(of: .withdraw)
        #expect(release != nil && withdraw != nil && release! < withdraw!)
        // And it does not open under the lock.
        #expect(!v.send(.click(.button(1))).contains(.takeKeyboard))
    }

    @Test("A window that may be a locker's (nobody holds the input yet) closes the entry too")
    func undecidedLockClosesTheEntry() {
        var v = Self.opened()
        v.send(.click(.button(1)))
        v.lockUndecided = true
        #expect(v.send(.lockChanged).contains(.releaseKeyboard))
    }

    @Test("While the entry is open, clicks on the toast and its other buttons end nothing")
    func clicksWhileOpen() {
        var v = Self.opened()
        v.send(.click(.button(1)))
        #expect(v.send(.click(.clicked)).isEmpty)
        #expect(v.send(.click(.button(0))).isEmpty)
        #expect(v.session.outcome == nil)
    }

    @Test("Another button is a button as before; a toast without a reply has no entry")
    func otherButtons() {
        var v = Self.opened()
        #expect(v.send(.click(.button(0))).last == .finish(.button(0)))
        var plain = VirtualSession(SessionTests.plan(hold: 2, content: ToastContent(message: "m", buttons: ["A", "B"])))
        plain.send(.start)
        plain.advance(to: 0.5)
        #expect(plain.send(.click(.button(1))).last == .finish(.button(1)))
        #expect(plain.send(.key(.text("x"))).isEmpty)
    }

    @Test("Keys before the entry opens type nothing")
    func keysBeforeOpening() {
        var v = Self.opened()
        #expect(v.send(.key(.text("x"))).isEmpty)
        #expect(v.send(.key(.send)).isEmpty)
    }

    @Test("What is typed is bounded and one line: control characters are dropped, the length capped")
    func bounded() {
        var draft = ReplyDraft(at: 0)
        draft.apply(.text("a\nb\tc\u{1b}[31md\u{7f}"), at: 0)
        #expect(draft.text == "abc[31md")
        draft.apply(.text(String(repeating: "x", count: 3 * ReplyDraft.limit)), at: 0)
        #expect(draft.text.count == ReplyDraft.limit)
        draft.apply(.deleteWord, at: 0)
        #expect(draft.text.isEmpty)
        draft.apply(.text("one two  "), at: 0)
        draft.apply(.deleteWord, at: 0)
        #expect(draft.text == "one ")
    }

    @Test(
        "Keys as the entry reads them",
        arguments: [
            (UInt(0xff0d), false, "\r", ReplyKey.send), (0xff8d, false, "", .send), (0xff1b, false, "", .cancel),
            (0xff08, false, "", .backspace), (0xff08, true, "", .deleteWord), (0x77, true, "", .deleteWord),
            (0x77, false, "w", .text("w")), (0x57, false, "W", .text("W")), (0x61, false, "", .text("a")),
            (0xe9, false, "", .text("é")), (0x100_0436, false, "", .text("ж")), (0x6c1, false, "а", .text("а")),
        ] as [(UInt, Bool, String, ReplyKey)])
    func keys(keysym: UInt, control: Bool, text: String, expected: ReplyKey) {
        #expect(ReplyKey(keysym: keysym, control: control, text: text) == expected)
    }

    @Test("Arrows, function keys and other Control chords type nothing")
    func ignoredKeys() {
        #expect(ReplyKey(keysym: 0xff51, control: false, text: "") == nil)  // Left
        #expect(ReplyKey(keysym: 0xffbe, control: false, text: "") == nil)  // F1
        #expect(ReplyKey(keysym: 0x61, control: true, text: "\u{1}") == nil)  // Ctrl-A
    }
}
