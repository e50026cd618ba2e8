import Testing

@testable import XToastCore

/// Who holds applications' notifications, as the service publishes it (`_XTOAST_INHIBITED`) and
/// as `--list`, `--watch` and the centre say it. Any client can write the value: it is read as
/// hostile input.
@Suite("Inhibited")
struct InhibitedTests {
    static func holder(_ name: String, _ reason: String? = nil) -> Inhibited.Holder {
        Inhibited.Holder(name: name, reason: reason)!
    }

    static let obs = Inhibited(holders: [holder("obs", "screen sharing"), holder("sleep", "sleep 30")])!

    @Test func readsWhatItWrites() {
        #expect(Self.obs.encoded == Array("obs\tscreen sharing\nsleep\tsleep 30".utf8))
        #expect(Inhibited.reading(Self.obs.encoded) == Self.obs)
        #expect(Self.obs.text == "obs (screen sharing), sleep (sleep 30)")
    }

    @Test func aReasonThatSaysTheNameAgainIsNone() {
        #expect(Self.holder("obs", "obs").text == "obs")
        #expect(Self.holder("obs", "").reason == nil)
        #expect(Inhibited.reading(Array("obs\t\n".utf8))?.text == "obs")
    }

    /// The window is gone with its service (or was never there): the reader got no value.
    @Test(arguments: [[UInt8]?.none, [], Array("\n\n".utf8), Array("\tonly a reason".utf8), Array(" \u{7}\t".utf8)])
    func nothingOrNobodyIsNotInhibited(bytes: [UInt8]?) {
        #expect(Inhibited.reading(bytes) == nil)
    }

    @Test func aHugeValueIsNotRead() {
        let huge = [UInt8](repeating: 0x41, count: Inhibited.byteLimit + 1)
        #expect(Inhibited.reading(huge) == nil)
        // Within the limit, a long name is cut.
        let long = Inhibited.reading([UInt8](repeating: 0x41, count: 1000))
        #expect(long?.holders.first?.name == String(repeating: "A", count: Inhibited.fieldLimit))
        #expect(long?.holders.first?.reason == nil)
    }

    @Test func invalidUTF8IsNotRead() {
        #expect(Inhibited.reading(Array("obs".utf8) + [0xFF, 0xFE]) == nil)
        #expect(Inhibited.reading([0xC3]) == nil)
    }

    @Test func controlAndReorderingCharactersAreDropped() {
        let read = Inhibited.reading(Array("ob\u{1B}s\u{202E}\t\u{7}screen\u{9B} sharing\r".utf8))
        #expect(read?.text == "obs (screen sharing)")
        // What is left of an escape sequence is inert text.
        #expect(Inhibited.reading(Array("\u{1B}[2Jobs".utf8))?.text == "[2Jobs")
        // The writer cleans as the reader does: a name cannot break the format.
        let written = Inhibited(holders: [Self.holder("a\nb\tc", "d\ne")])!
        #expect(written.encoded == Array("abc\tde".utf8))
    }

    @Test func fewHoldersEachOnce() {
        let many = (0..<50).map { Self.holder("app\($0 % 20)") }
        let inhibited = Inhibited(holders: many)!
        #expect(inhibited.holders.map(\.name) == (0..<Inhibited.holderLimit).map { "app\($0)" })
        #expect(inhibited.encoded.count <= Inhibited.byteLimit)
        let lines = (0..<200).map { "app\($0)\treason" }.joined(separator: "\n")
        #expect(Inhibited.reading(Array(lines.utf8))?.holders.count == Inhibited.holderLimit)
        // The largest value a writer makes is read whole.
        let widest = (0..<Inhibited.holderLimit).map {
            Self.holder("\($0)" + String(repeating: "\u{10FFFF}", count: 100), String(repeating: "\u{10FFFF}", count: 100))
        }
        let encoded = Inhibited(holders: widest)!.encoded
        #expect(encoded.count <= Inhibited.byteLimit)
        #expect(Inhibited.reading(encoded)?.holders.count == Inhibited.holderLimit)
    }

    // MARK: What each view says

    @Test func listSaysItAfterThePause() {
        let time = { (seconds: Int) in "T\(seconds)" }
        #expect(
            Listing.lines([], pause: Pause(end: 99), inhibited: Self.obs, time: time) == [
                "paused until T99", "inhibited by obs (screen sharing), sleep (sleep 30)",
            ])
        #expect(Listing.lines([], pause: nil, inhibited: Inhibited(holders: [Self.holder("obs")]), time: time) == ["inhibited by obs"])
        #expect(
            Listing.json([], pause: nil, inhibited: Self.obs) == [
                #"{"paused":false,"inhibited":true,"by":["obs (screen sharing)","sleep (sleep 30)"]}"#
            ])
    }

    @Test func watchSaysItAsItSaysThePauseAndWhenItEnds() {
        var watch = Watch()
        _ = watch.handle(WatchTests.kept([]), at: WatchTests.now)
        let inhibited = Watch.Event.display(
            Watch.Display(pauseValues: [0], queue: [], stack: [], scheduled: [], tickets: [], inhibitedValue: Self.obs.encoded))
        #expect(
            watch.handle(inhibited, at: WatchTests.now)
                == #"{"count":0,"unread":0,"paused":true,"until":null,"inhibited":true,"by":["obs (screen sharing)","sleep (sleep 30)"],"showing":0,"waiting":0}"#
        )
        // The same again: nothing; the window gone with its service: a line at once.
        #expect(watch.handle(inhibited, at: WatchTests.now + 1) == nil)
        #expect(
            watch.handle(WatchTests.display(), at: WatchTests.now + 2)
                == #"{"count":0,"unread":0,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)
        // Garbage is nobody.
        let garbage = Watch.Event.display(
            Watch.Display(pauseValues: nil, queue: [], stack: [], scheduled: [], tickets: [], inhibitedValue: [0xFF]))
        #expect(watch.handle(garbage, at: WatchTests.now + 3) == nil)
    }

    @Test func theCentreSaysWhoHoldsBesideTheSwitch() {
        var center = Center(entries: [], metrics: CenterTests.metrics, paused: false)
        #expect(center.heldText == nil)
        #expect(center.handle(.inhibited(Inhibited(holders: [Self.holder("obs")]))) == [.redraw])
        #expect(center.heldText == "Held by obs")
        #expect(center.paused == false)
        #expect(center.handle(.inhibited(Inhibited(holders: [Self.holder("obs")]))).isEmpty)
        #expect(center.handle(.inhibited(Self.obs)) == [.redraw])
        #expect(center.heldText == "Held by obs (screen sharing), sleep (sleep 30)")
        #expect(center.handle(.inhibited(nil)) == [.redraw])
        #expect(center.heldText == nil)
    }
}
