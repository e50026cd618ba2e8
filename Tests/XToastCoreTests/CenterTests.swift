import Testing

@testable import XToastCore

/// The notification centre's model: what it lists and in which order, where the keyboard and
/// the clicks go, what each asks to be done, and that a list of thousands costs no more to show.
@Suite("Center")
struct CenterTests {
    static let metrics = Center.Metrics(group: 30, entry: 70, buttons: 30, viewport: 400)

    static func kept(_ id: UInt32, app: String, time: Int, buttons: [String] = [], action: Bool = false) -> CenterEntry {
        var entry = CenterEntry(
            kept: Dispatcher.Notification(id: id, toast: NotificationToast(test: app), time: time), readUpTo: 0)
        entry.buttons = buttons
        entry.hasDefaultAction = action
        return entry
    }

    static func toast(_ text: String, time: Int) -> CenterEntry {
        CenterEntry(toast: HistoryEntry(time: time, ending: "expired", shown: true, text: text))!
    }

    /// Signal (two, the newest at 300), a script's toast at 200, Mail at 100.
    static let sample = [
        kept(1, app: "Mail", time: 100, buttons: ["Reply", "Archive"], action: true), kept(2, app: "Signal", time: 150),
        kept(3, app: "Signal", time: 300, action: true), toast("Build passed", time: 200),
    ]

    @Test func groupsComeByTheirNewestEntryAndEntriesNewestFirst() {
        let center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        #expect(center.groups.map(\.app) == ["Signal", CenterEntry.toastsGroup, "Mail"])
        #expect(center.groups[0].entries.map(\.source) == [.notification(3), .notification(2)])
        #expect(center.rows == [.group(0), .entry(0, 0), .entry(0, 1), .group(1), .entry(1, 0), .group(2), .entry(2, 0)])
        // Rows' heights: a header, entries, and buttons under the one that has them.
        #expect(center.height == 3 * 30 + 4 * 70 + 30)
        // The first entry is chosen as it opens.
        #expect(center.selected == 1)
    }

    @Test func theSameEntriesInAnyOrderMakeTheSameCentre() {
        var generator = SplitMix64(state: 7)
        for _ in 0..<20 {
            var shuffled = Self.sample + [Self.kept(9, app: "Signal", time: 300), Self.kept(10, app: "Chat", time: 300)]
            // Fisher-Yates with our own generator: the same order in every run.
            for index in stride(from: shuffled.count - 1, to: 0, by: -1) {
                shuffled.swapAt(index, generator.below(index + 1))
            }
            let center = Center(entries: shuffled, metrics: Self.metrics, paused: false)
            // Groups as new as each other: by name.
            #expect(center.groups.map(\.app) == ["Chat", "Signal", CenterEntry.toastsGroup, "Mail"])
            #expect(center.groups[1].entries.map(\.source) == [.notification(9), .notification(3), .notification(2)])
        }
    }

    @Test func enterOnAnEntryWithItsOwnActionPressesItAndCloses() {
        var center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        #expect(center.handle(.key(.activate)) == [.press(3, label: nil), .close])
        #expect(center.isClosed)
        #expect(center.handle(.key(.down)) == [])
    }

    @Test func enterOnOneWithoutAnActionOnlyChoosesIt() {
        var center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        _ = center.handle(.key(.down))
        #expect(center.selected == 2)
        #expect(center.handle(.key(.activate)) == [])
        #expect(!center.isClosed)
        // A script's toast has nothing to press either.
        #expect(center.handle(.click(.row(4))) == [.redraw])
        #expect(center.selected == 4)
        #expect(center.handle(.key(.activate)) == [])
    }

    @Test func tabChoosesEachButtonThenNoneAndEnterPressesTheChosenOne() {
        var center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        _ = center.handle(.key(.end))
        #expect(center.entry(center.selected!)?.source == .notification(1))
        #expect(center.handle(.key(.nextButton)) == [.redraw])
        #expect(center.selectedButton == 0)
        _ = center.handle(.key(.nextButton))
        #expect(center.selectedButton == 1)
        _ = center.handle(.key(.nextButton))
        #expect(center.selectedButton == nil)
        _ = center.handle(.key(.nextButton))
        _ = center.handle(.key(.nextButton))
        #expect(center.handle(.key(.activate)) == [.press(1, label: "Archive"), .close])
    }

    @Test func aClickOnAButtonPressesItsLabel() {
        var center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        #expect(center.handle(.click(.button(row: 6, index: 0))) == [.press(1, label: "Reply"), .close])
    }

    @Test func aClickOutsideOrEscapeCloses() {
        var center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        #expect(center.handle(.click(.nothing)) == [])
        #expect(center.handle(.click(.outside)) == [.close])
        var other = Center(entries: [], metrics: Self.metrics, paused: false)
        #expect(other.handle(.key(.close)) == [.close])
    }

    @Test func deleteDismissesTheEntryOrTheWholeGroup() {
        var center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        // The newest Signal entry.
        #expect(center.handle(.key(.dismiss)) == [.dismiss([.notification(3)]), .redraw])
        #expect(center.groups[0].entries.map(\.source) == [.notification(2)])
        #expect(center.selected == 1)
        // Its header: the group whole.
        _ = center.handle(.key(.home))
        #expect(center.handle(.key(.dismiss)) == [.dismiss([.notification(2)]), .redraw])
        #expect(center.groups.map(\.app) == [CenterEntry.toastsGroup, "Mail"])
        // The last entry of a group takes its header with it.
        _ = center.handle(.key(.down))
        #expect(
            center.handle(.key(.dismiss)) == [
                .dismiss([.toast(CenterEntry.key(of: HistoryEntry(time: 200, ending: "expired", shown: true, text: "Build passed")))]),
                .redraw,
            ])
        #expect(center.groups.map(\.app) == ["Mail"])
        #expect(center.rows.count == 2)
    }

    @Test func shiftDeleteOrClearAllDismissesEverything() {
        var center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        let effects = center.handle(.key(.dismissAll))
        #expect(effects.count == 2)
        guard case .dismiss(let gone) = effects.first else { return #expect(Bool(false)) }
        #expect(Set(gone) == Set(Self.sample.map(\.source)))
        #expect(center.rows.isEmpty && center.selected == nil && center.count == 0)
        // Nothing left: nothing to do.
        #expect(center.handle(.click(.clearAll)) == [])
        #expect(center.handle(.key(.dismiss)) == [])
        #expect(center.handle(.key(.down)) == [])
    }

    @Test func theSwitchPausesAndResumesAndFollowsTheDisplay() {
        var center = Center(entries: [], metrics: Self.metrics, paused: false)
        #expect(center.handle(.key(.togglePause)) == [.setPause(true), .redraw])
        #expect(center.handle(.click(.pauseSwitch)) == [.setPause(false), .redraw])
        // Another program paused: drawn, nothing set.
        #expect(center.handle(.paused(true)) == [.redraw])
        #expect(center.handle(.paused(true)) == [])
        #expect(center.paused)
    }

    @Test func theChosenRowStaysInViewAndOnlyTheRowsInViewAreListed() {
        let entries = (1...10_000).map { Self.kept(UInt32($0), app: "App \($0 % 7)", time: $0) }
        var center = Center(entries: entries, metrics: Self.metrics, paused: false)
        #expect(center.count == 10_000)
        #expect(center.visibleRows.count <= Self.metrics.viewport / Self.metrics.group + 1)
        _ = center.handle(.key(.end))
        let last = center.rows.count - 1
        #expect(center.selected == last)
        #expect(center.offset == center.height - Self.metrics.viewport)
        #expect(center.visibleRows.last?.row == last)
        _ = center.handle(.key(.pageUp))
        let chosen = center.selected!
        let top = center.visibleRows.first { $0.row == chosen }?.top
        #expect(top != nil && top! >= 0 && top! + center.height(of: chosen) <= Self.metrics.viewport)
        _ = center.handle(.key(.home))
        #expect(center.offset == 0 && center.selected == 0)
        #expect(center.handle(.key(.up)) == [])
    }

    @Test func theWheelScrollsWithinTheList() {
        let entries = (1...20).map { Self.kept(UInt32($0), app: "A", time: $0) }
        var center = Center(entries: entries, metrics: Self.metrics, paused: false)
        #expect(center.handle(.scroll(-1)) == [])
        #expect(center.handle(.scroll(2)) == [.redraw])
        #expect(center.offset == 70)
        _ = center.handle(.scroll(1000))
        #expect(center.offset == center.height - Self.metrics.viewport)
    }

    @Test func aReloadKeepsTheChosenEntryChosen() {
        var center = Center(entries: Self.sample, metrics: Self.metrics, paused: false)
        _ = center.handle(.key(.end))
        #expect(center.entry(center.selected!)?.source == .notification(1))
        // A newer one comes: rows shift, the choice follows its entry.
        #expect(center.handle(.reloaded(Self.sample + [Self.kept(4, app: "New", time: 400)])) == [.redraw])
        #expect(center.entry(center.selected!)?.source == .notification(1))
        #expect(center.groups.first?.app == "New")
        // The same again: nothing to draw.
        #expect(center.handle(.reloaded(Self.sample + [Self.kept(4, app: "New", time: 400)])) == [])
        // It goes (closed by its application): the choice stays in the list.
        #expect(center.handle(.reloaded(Array(Self.sample.dropFirst()))) == [.redraw])
        #expect(center.selected! < center.rows.count)
    }

    @Test func unreadAreTheKeptOnesPastTheMarker() {
        let notifications = (1...4).map {
            Dispatcher.Notification(id: UInt32($0), toast: NotificationToast(test: "A"), time: $0)
        }
        let entries = CenterEntry.entries(kept: notifications, history: [], dismissed: [], readUpTo: 2)
        #expect(entries.map(\.unread) == [false, false, true, true])
        #expect(Center(entries: entries, metrics: Self.metrics, paused: false).unread == 2)
    }

    @Test func theHistoryGivesScriptsToastsThatShowedOrWereKeptForItLessTheDismissed() {
        var notification = HistoryEntry(time: 5, ending: "expired", shown: true, text: "from an application")
        notification.notification = true
        let unshown = HistoryEntry(time: 6, ending: "dropped", shown: false, text: "never showed")
        let shown = HistoryEntry(time: 7, ending: "expired", shown: true, text: "Build passed")
        let dismissed = HistoryEntry(time: 8, ending: "expired", shown: true, text: "Old news")
        // Kept from the screen to be seen in the centre: by a rule, in a summary after quiet.
        let quiet = HistoryEntry(time: 9, ending: "quiet", shown: false, text: "Backup done")
        let summarised = HistoryEntry(time: 10, ending: "summarised", shown: false, text: "Lunch?")
        let entries = CenterEntry.entries(
            kept: [], history: [notification, unshown, shown, dismissed, quiet, summarised], dismissed: [CenterEntry.key(of: dismissed)],
            readUpTo: 0)
        #expect(entries.map(\.title) == ["Build passed", "Backup done", "Lunch?"])
    }

    @Test func textsAreOneBoundedLineWithoutControlCharacters() {
        var entry = HistoryEntry(time: 1, ending: "expired", shown: true, text: "<b>line one</b>\nline\u{1b}[31m two\u{7}")
        entry.markup = true
        entry.title = String(repeating: "t", count: 5000)
        let listed = CenterEntry(toast: entry)!
        #expect(listed.text == "line one line [31m two")
        #expect(listed.title.count == CenterEntry.textLimit)
        #expect(listed.title.hasSuffix("…"))
        // A text alone is the title.
        #expect(CenterEntry(toast: HistoryEntry(time: 1, ending: "expired", shown: true, text: "only"))!.title == "only")
    }

    @Test func theDismissedFileIsBoundedAndReadAsHostileInput() {
        let keys = CenterDismissals.read(Array("12-ab\n../etc/passwd\n\(String(repeating: "9", count: 50))\n34-cd\n".utf8))
        #expect(keys == ["12-ab", "34-cd"])
        // Only the keys the history still has stay.
        let written = CenterDismissals.write(keys, adding: ["56-ef"], current: ["34-cd", "56-ef"])
        #expect(String(decoding: written, as: UTF8.self) == "34-cd\n56-ef\n")
        let many = CenterDismissals.read(Array((0..<10_000).map { "\($0)-a\n" }.joined().utf8))
        #expect(many.count <= CenterDismissals.countLimit)
    }

    @Test(arguments: [(0, "now"), (59, "now"), (60, "1 min"), (3599, "59 min"), (3600, "1 h"), (86_400, "1 d"), (-5, "now")])
    func agesAreShort(seconds: Int, words: String) {
        #expect(Center.age(of: 1000, now: 1000 + seconds) == words)
    }

    @Test func keysMapAsTheHelpSays() {
        #expect(Center.Key(keysym: 0xff1b, shift: false) == .close)
        #expect(Center.Key(keysym: 0xffff, shift: false) == .dismiss)
        #expect(Center.Key(keysym: 0xffff, shift: true) == .dismissAll)
        #expect(Center.Key(keysym: 0x6a, shift: false) == .down)
        #expect(Center.Key(keysym: 0x41, shift: false) == nil)
    }
}

extension NotificationToast {
    /// A toast of application `app` with nothing else: for the centre's tests.
    init(test app: String) {
        self.init(
            arguments: ["--", "x"], tag: "fdn-1", buttonKeys: [], labels: [], hasDefaultAction: false, app: app, summary: "Title",
            body: "Body", whenExpired: .kept, whenActed: .closed)
    }
}
