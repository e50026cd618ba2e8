import Testing

@testable import XToastCore

/// `xtoast --watch`: one line at the start, then one per change of what a bar shows, only then;
/// a timed pause's end is a change at its moment, with nobody announcing it.
@Suite("Watch")
struct WatchTests {
    static let now = 1_800_000_000.0

    static func display(pause: [UInt]? = nil, queue: [UInt] = [], stack: [UInt] = [], tickets: [Listing.Found] = []) -> Watch.Event {
        .display(Watch.Display(pauseValues: pause, queue: queue, stack: stack, scheduled: [], tickets: tickets))
    }

    static func kept(_ ids: [UInt32], readUpTo: UInt32 = 0) -> Watch.Event { .kept(Watch.Kept(ids: ids, readUpTo: readUpTo)) }

    @Test func theFirstLineComesOnceBothSidesWereRead() {
        var watch = Watch()
        #expect(watch.handle(Self.kept([3, 7]), at: Self.now) == nil)
        #expect(
            watch.handle(Self.display(), at: Self.now)
                == #"{"count":2,"unread":2,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)
        // The same again: nothing to print.
        #expect(watch.handle(Self.kept([7, 3]), at: Self.now + 5) == nil)
        #expect(watch.handle(Self.display(), at: Self.now + 5) == nil)
        #expect(watch.handle(.time, at: Self.now + 9) == nil)
    }

    @Test(arguments: [
        (UInt32(0), 3), (3, 2), (7, 1), (9, 0), (UInt32.max, 0),
    ])
    func unreadAreTheOnesPastTheMarker(marker: UInt32, unread: Int) {
        var watch = Watch()
        _ = watch.handle(Self.display(), at: Self.now)
        _ = watch.handle(Self.kept([3, 7, 9], readUpTo: marker), at: Self.now)
        #expect(watch.printed?.count == 3)
        #expect(watch.printed?.unread == unread)
    }

    @Test func aTimedPauseEndsAtItsDeadlineAndAResumeAtOnce() {
        var watch = Watch()
        let end = UInt(Self.now + 60)
        _ = watch.handle(Self.kept([]), at: Self.now)
        #expect(
            watch.handle(Self.display(pause: [end]), at: Self.now)
                == #"{"count":0,"unread":0,"paused":true,"until":1800000060,"inhibited":false,"showing":0,"waiting":0}"#)
        #expect(watch.deadline == Self.now + 60)
        // Woken early (a clock set back and forth): still paused, nothing printed.
        #expect(watch.handle(.time, at: Self.now + 59) == nil)
        // At the end, with the property still on the root (a timed pause ends by itself).
        #expect(
            watch.handle(.time, at: Self.now + 60) == #"{"count":0,"unread":0,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)
        #expect(watch.deadline == nil)
        // Until --resume: `until` is null, and no deadline.
        #expect(
            watch.handle(Self.display(pause: [0]), at: Self.now + 61)
                == #"{"count":0,"unread":0,"paused":true,"until":null,"inhibited":false,"showing":0,"waiting":0}"#)
        #expect(watch.deadline == nil)
        #expect(
            watch.handle(Self.display(), at: Self.now + 62)
                == #"{"count":0,"unread":0,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)
    }

    /// Anyone may write the property: garbage, an end long past or far ahead reads as no pause.
    @Test(arguments: [[UInt]?.none, [], [1, 2], [5], [UInt(1_800_000_000 + Pause.maximumAhead + 10)], [UInt(UInt32.max) + 1]])
    func aMalformedPauseIsNoPause(values: [UInt]?) {
        var watch = Watch()
        _ = watch.handle(Self.kept([]), at: Self.now)
        _ = watch.handle(Self.display(pause: values), at: Self.now)
        #expect(watch.printed?.pause == nil)
        #expect(watch.deadline == nil)
    }

    @Test func toastsCountAsShowingOrWaitingButNotScheduled() {
        var watch = Watch()
        _ = watch.handle(Self.kept([]), at: Self.now)
        let tickets = [
            ListingTests.found(1, pid: 101, shown: true), ListingTests.found(2, pid: 102),
            ListingTests.found(3, pid: 103, pause: .held), ListingTests.found(4, pid: 104, shown: true),
            ListingTests.found(5, pid: 105, pause: .aside), ListingTests.found(6, pid: 106, at: 1_900_000_000),
        ]
        let event = Watch.Event.display(
            Watch.Display(pauseValues: [0], queue: [1, 2, 3, 5, 99], stack: [4], scheduled: [6], tickets: tickets))
        #expect(
            watch.handle(event, at: Self.now)
                == #"{"count":0,"unread":0,"paused":true,"until":null,"inhibited":false,"showing":2,"waiting":3}"#)
        // The toast on screen leaves; the next is not drawn yet: it waits.
        let next = Self.display(pause: [0], queue: [2, 3, 5], stack: [4], tickets: Array(tickets[1...4]))
        #expect(
            watch.handle(next, at: Self.now)
                == #"{"count":0,"unread":0,"paused":true,"until":null,"inhibited":false,"showing":1,"waiting":3}"#)
    }

    @Test func aChangeOfTheStoreAloneIsALine() {
        var watch = Watch()
        _ = watch.handle(Self.display(), at: Self.now)
        _ = watch.handle(Self.kept([]), at: Self.now)
        #expect(
            watch.handle(Self.kept([12]), at: Self.now)
                == #"{"count":1,"unread":1,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)
        #expect(
            watch.handle(Self.kept([12], readUpTo: 12), at: Self.now)
                == #"{"count":1,"unread":0,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)
        #expect(
            watch.handle(Self.kept([], readUpTo: 12), at: Self.now)
                == #"{"count":0,"unread":0,"paused":false,"inhibited":false,"showing":0,"waiting":0}"#)
    }
}

/// The store's read marker: hostile bytes read as "nothing read", and it only moves forward.
@Suite("Kept notifications' read marker")
struct ReadMarkerTests {
    @Test(arguments: [
        ("7\n", UInt32(7)), ("7", 7), ("4294967295\n", UInt32.max), ("4294967296", 0), ("", 0), ("\n", 0), ("-1", 0), ("07x", 0),
        (" 7", 0), ("7\n\n", 0), ("00000000012", 0), ("+7", 0), ("٣", 0),
    ])
    func readsOnlyDigits(text: String, id: UInt32) {
        #expect(KeptNotifications.readMarker(Array(text.utf8)) == id)
    }

    @Test func writesWhatItReads() {
        for id: UInt32 in [1, 42, .max] { #expect(KeptNotifications.readMarker(KeptNotifications.readMarker(upTo: id)) == id) }
    }

    @Test func movesOnlyForward() {
        #expect(KeptNotifications.readMarker(after: [3, 9, 5], marker: 0) == 9)
        #expect(KeptNotifications.readMarker(after: [3, 9, 5], marker: 9) == nil)
        #expect(KeptNotifications.readMarker(after: [3], marker: 9) == nil)
        #expect(KeptNotifications.readMarker(after: [], marker: 0) == nil)
    }
}
