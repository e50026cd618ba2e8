import Testing

@testable import XToastCore

/// A click on a link in the text: the session opens it, and the toast goes on as it was.
@Suite("Session machine: links")
struct SessionLinkTests {
    static let url = "https://example.com/notes?a=1&b=2"

    @Test("A click on a link opens it and is not a click on the toast: it neither ends nor acts")
    func opensWithoutEnding() {
        var v = VirtualSession(SessionTests.plan(hold: 1))
        v.send(.start)
        v.advance(to: 0.5)
        #expect(v.send(.link(Self.url)) == [.open(Self.url)])
        #expect(v.session.outcome == nil && v.session.showing != nil)
        // Its time goes on as if nothing happened: it expires when a toast nobody touched does.
        #expect(v.runToEnd() == .expired)
        #expect(abs(v.now - 1.39) < 1e-6)
    }

    @Test("A click elsewhere after a link is the toast's click, as before")
    func aClickAfterALink() {
        var plan = SessionTests.plan()
        plan.duration = .sticky
        var v = VirtualSession(plan)
        v.send(.start)
        v.advance(to: 1)
        #expect(v.send(.link(Self.url)) == [.open(Self.url)])
        #expect(v.send(.click(.clicked)) == [.finish(.clicked)])
    }

    @Test("The second click of a double click opens nothing more; a later one opens again")
    func doubleClick() {
        var plan = SessionTests.plan()
        plan.duration = .sticky
        var v = VirtualSession(plan)
        v.send(.start)
        v.advance(to: 1)
        #expect(v.send(.link(Self.url)) == [.open(Self.url)])
        v.advance(to: 1 + Session.linkRepeatInterval / 2)
        #expect(v.send(.link(Self.url)).isEmpty)
        #expect(v.send(.link("mailto:a@b.c")).isEmpty)
        v.advance(to: 1 + Session.linkRepeatInterval)
        #expect(v.send(.link("mailto:a@b.c")) == [.open("mailto:a@b.c")])
    }

    @Test(
        "A URL that may not be opened opens nothing, whoever sent the event",
        arguments: ["file:///etc/passwd", "javascript:alert(1)", "https://example.com/\"; rm -rf ~", "--help", ""])
    func refused(url: String) {
        var v = VirtualSession(SessionTests.plan(hold: 5))
        v.send(.start)
        v.advance(to: 1)
        #expect(v.send(.link(url)).isEmpty)
        #expect(v.session.outcome == nil)
    }

    @Test("Before the toast is on screen, and after it ended, a link opens nothing")
    func onlyWhileShown() {
        var v = VirtualSession(SessionTests.plan())
        v.turn = .waitFor(7)
        v.send(.start)
        #expect(v.send(.link(Self.url)).isEmpty)

        var ended = VirtualSession(SessionTests.plan(hold: 0.1))
        ended.send(.start)
        #expect(ended.runToEnd() == .expired)
        #expect(ended.send(.link(Self.url)).isEmpty)
    }
}
