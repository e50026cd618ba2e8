import Testing

@testable import XToastCore

/// The rule behind the start-up view's reuse (`Freshness`, issue #31): asked once, used by every
/// look until a wait, a watch or the show makes it stale; a toast on screen asks each time.
@Suite struct FreshnessTests {
    /// A view that counts how often the server was asked.
    struct Asker {
        var asked = 0
        mutating func ask() -> Int {
            asked += 1
            return 100 + asked
        }
    }

    @Test func theViewAskedAtStartServesEveryLookUntilTheShowTakesIt() {
        var view = Freshness(asked: 100)
        var server = Asker()
        #expect(view.use { server.ask() } == 100)
        #expect(view.use { server.ask() } == 100)
        #expect(view.current == 100)
        #expect(view.take { server.ask() } == 100)
        #expect(server.asked == 0, "the start's answer stood for every look")
        #expect(view.current == nil, "a toast on screen asks afresh")
        #expect(view.take { server.ask() } == 101)
    }

    @Test func aWaitOrAWatchMakesItStaleAndTheNextLookAsksAgainAndKeepsIt() {
        var view = Freshness(asked: 100)
        var server = Asker()
        view.expire()
        #expect(view.current == nil)
        #expect(view.use { server.ask() } == 101)
        #expect(view.use { server.ask() } == 101, "kept for the looks that follow")
        #expect(server.asked == 1)
    }

    @Test func aLookWhileAToastIsUpKeepsNothing() {
        var view = Freshness<Int>(asked: nil)
        var server = Asker()
        #expect(view.use(keeping: false) { server.ask() } == 101)
        #expect(view.use(keeping: false) { server.ask() } == 102)
        #expect(server.asked == 2 && view.current == nil)
    }
}
