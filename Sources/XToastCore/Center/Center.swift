/// The notification centre (`xtoast --center`) as a value: what it lists, which row is chosen,
/// how far the list is scrolled, and the pause switch; keys, clicks and reloads in, effects out.
/// The window (`CenterWindow`) only turns X events into `Event`s, carries out the effects and
/// draws what this says; the painter measures nothing the model decides by.
///
/// It lists groups, one an application, newest first, each under a header with its count; a
/// group's entries newest first. Rows have fixed heights (`Metrics`), so where any row sits is
/// a sum known without drawing: 10,000 entries scroll as fast as ten, and a frame draws only
/// the rows it shows.
public struct Center: Sendable {
    /// The rows' heights and the list's, in device pixels, as the painter laid them out.
    public struct Metrics: Equatable, Sendable {
        /// An application's header.
        public var group: Int
        /// An entry without buttons.
        public var entry: Int
        /// What buttons add under an entry.
        public var buttons: Int
        /// The height the list shows at once.
        public var viewport: Int

        public init(group: Int, entry: Int, buttons: Int, viewport: Int) {
            (self.group, self.entry, self.buttons, self.viewport) = (group, entry, buttons, viewport)
        }
    }

    /// One application's entries, newest first.
    public struct Group: Equatable, Sendable {
        public var app: String
        public var entries: [CenterEntry]
    }

    /// A row of the list: a group's header, or one of its entries.
    public enum Row: Equatable, Sendable {
        case group(Int)
        case entry(Int, Int)
    }

    /// What a click fell on, as the painter found it.
    public enum Hit: Equatable, Sendable {
        /// A row (its index in `rows`), not on one of its buttons.
        case row(Int)
        /// Button `index` of the entry in row `row`.
        case button(row: Int, index: Int)
        /// The do-not-disturb switch in the header.
        case pauseSwitch
        /// "Clear all" in the header.
        case clearAll
        /// The window, on nothing that acts.
        case nothing
        /// Outside the window.
        case outside
    }

    /// What the user asks with the keyboard (the window maps keys to these).
    public enum Key: Sendable {
        case up, down, pageUp, pageDown, home, end
        /// Tab: the chosen entry's next button (after its last, none: Enter is its own action).
        case nextButton
        /// Enter: the chosen button, else the entry's own action.
        case activate
        /// Delete: the chosen entry, or the chosen group whole.
        case dismiss
        /// Shift+Delete: everything.
        case dismissAll
        /// `d`: do not disturb, on or off.
        case togglePause
        /// Escape.
        case close
    }

    public enum Event: Sendable {
        case key(Key)
        case click(Hit)
        /// The wheel: positive down, in notches.
        case scroll(Int)
        /// What the stores hold now (something came, or went, while the centre was open).
        case reloaded([CenterEntry])
        /// The pause as the display says it now (another program changed it).
        case paused(Bool)
        /// Who holds applications' notifications now (an inhibition began or ended, or its
        /// service went).
        case inhibited(Inhibited?)
    }

    public enum Effect: Equatable, Sendable {
        /// Something shown changed: draw again.
        case redraw
        /// Tell the application of kept notification `id` that the user chose `label` (nil: its
        /// default action). The centre closes after it: the application comes forward.
        case press(UInt32, label: String?)
        /// These are gone from the centre: close the notifications, forget the toasts.
        case dismiss([CenterEntry.Source])
        /// Pause the toasts until resumed, or resume them.
        case setPause(Bool)
        /// Close the centre.
        case close
    }

    public let metrics: Metrics
    public private(set) var groups: [Group] = []
    public private(set) var rows: [Row] = []
    /// Where each row starts in the list; one more, the list's whole height.
    private var tops: [Int] = [0]
    /// The chosen row, if the list has any.
    public private(set) var selected: Int?
    /// The chosen button of the chosen entry (Tab), if any.
    public private(set) var selectedButton: Int?
    /// How far the list is scrolled: the list's pixel at the top of the viewport.
    public private(set) var offset = 0
    public private(set) var paused: Bool
    /// Who holds applications' notifications (`Inhibit`, `xtoast --inhibit`): said beside the
    /// switch, which stays the pause's own.
    public private(set) var inhibited: Inhibited?
    /// Whether it closed (nothing more is handed to it).
    public private(set) var isClosed = false

    /// A centre listing `entries` (in any order) at `metrics`, the pause and the inhibition as
    /// the display says.
    public init(entries: [CenterEntry], metrics: Metrics, paused: Bool, inhibited: Inhibited? = nil) {
        self.metrics = metrics
        self.paused = paused
        self.inhibited = inhibited
        rebuild(Self.grouped(entries))
        selected = rows.indices.first { if case .entry = rows[$0] { true } else { false } }
    }

    /// The entries grouped by application: groups by their newest entry, newest first; ties by
    /// name, so that the order never rests on a dictionary's.
    static func grouped(_ entries: [CenterEntry]) -> [Group] {
        var byApp: [String: [CenterEntry]] = [:]
        for entry in entries { byApp[entry.app, default: []].append(entry) }
        return byApp.map { Group(app: $0.key, entries: $0.value.sorted(by: CenterEntry.isNewer)) }
            .sorted { ($0.entries[0].time, $1.app) > ($1.entries[0].time, $0.app) }
    }

    // MARK: What it shows

    /// The entries not read yet.
    public var unread: Int { groups.reduce(0) { $0 + $1.entries.count { $0.unread } } }

    /// The line beside the switch while an application holds notifications: "Held by obs
    /// (screen sharing)"; nil while none does.
    public var heldText: String? { inhibited.map { "\(CenterLook.standard.heldText) \($0.text)" } }

    /// Every entry.
    public var count: Int { groups.reduce(0) { $0 + $1.entries.count } }

    /// The list's whole height.
    public var height: Int { tops[tops.count - 1] }

    /// The rows the viewport shows, each with its top relative to the viewport's.
    public var visibleRows: [(row: Int, top: Int)] {
        guard !rows.isEmpty else { return [] }
        var index = rowIndex(at: offset)
        var found: [(Int, Int)] = []
        while index < rows.count, tops[index] < offset + metrics.viewport {
            found.append((index, tops[index] - offset))
            index += 1
        }
        return found
    }

    /// The entry of an entry row.
    public func entry(_ row: Int) -> CenterEntry? {
        guard rows.indices.contains(row), case .entry(let g, let e) = rows[row] else { return nil }
        return groups[g].entries[e]
    }

    /// The height of row `row`.
    public func height(of row: Int) -> Int { tops[row + 1] - tops[row] }

    /// The row at `y` in the list (binary search: the tops grow).
    private func rowIndex(at y: Int) -> Int {
        var (low, high) = (0, rows.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if tops[middle] <= y { low = middle } else { high = middle - 1 }
        }
        return low
    }

    // MARK: Events

    /// Handles `event`: what to carry out, in order.
    public mutating func handle(_ event: Event) -> [Effect] {
        guard !isClosed else { return [] }
        switch event {
        case .key(let key): return handle(key)
        case .click(let hit): return click(hit)
        case .scroll(let notches):
            let before = offset
            scroll(to: offset + notches * max(metrics.entry / 2, 1))
            return offset == before ? [] : [.redraw]
        case .reloaded(let entries): return reload(entries)
        case .paused(let value):
            guard value != paused else { return [] }
            paused = value
            return [.redraw]
        case .inhibited(let value):
            guard value != inhibited else { return [] }
            inhibited = value
            return [.redraw]
        }
    }

    private mutating func handle(_ key: Key) -> [Effect] {
        switch key {
        case .up: return select(selected.map { $0 - 1 } ?? 0)
        case .down: return select(selected.map { $0 + 1 } ?? 0)
        case .pageUp: return select(rowIndex(at: max(tops[selected ?? 0] - metrics.viewport, 0)))
        case .pageDown: return select(rowIndex(at: min(tops[selected ?? 0] + metrics.viewport, max(height - 1, 0))))
        case .home: return select(0)
        case .end: return select(rows.count - 1)
        case .nextButton:
            guard let row = selected, let entry = entry(row), !entry.buttons.isEmpty else { return [] }
            let next = (selectedButton ?? -1) + 1
            selectedButton = next < entry.buttons.count ? next : nil
            return [.redraw]
        case .activate:
            guard let row = selected else { return [] }
            return selectedButton.map { click(.button(row: row, index: $0)) } ?? activate(row)
        case .dismiss:
            guard let row = selected else { return [] }
            return dismiss(row)
        case .dismissAll: return click(.clearAll)
        case .togglePause: return click(.pauseSwitch)
        case .close:
            isClosed = true
            return [.close]
        }
    }

    private mutating func click(_ hit: Hit) -> [Effect] {
        switch hit {
        case .row(let row):
            guard rows.indices.contains(row) else { return [] }
            if entry(row) != nil { return activate(row) }
            return select(row)
        case .button(let row, let index):
            guard let entry = entry(row), entry.buttons.indices.contains(index) else { return [] }
            guard case .notification(let id) = entry.source else { return [] }
            return press(id, label: entry.buttons[index])
        case .pauseSwitch:
            paused.toggle()
            return [.setPause(paused), .redraw]
        case .clearAll:
            let all = groups.flatMap { $0.entries.map(\.source) }
            guard !all.isEmpty else { return [] }
            rebuild([])
            (selected, selectedButton, offset) = (nil, nil, 0)
            return [.dismiss(all), .redraw]
        case .nothing: return []
        case .outside:
            isClosed = true
            return [.close]
        }
    }

    /// Enter or a click on an entry: its own action, for a notification that has one (the
    /// centre closes as the application comes forward); else it is only chosen.
    private mutating func activate(_ row: Int) -> [Effect] {
        guard let entry = entry(row), case .notification(let id) = entry.source, entry.hasDefaultAction else {
            return select(row)
        }
        return press(id, label: nil)
    }

    /// A press reaches the application; the notification leaves the centre unless it is resident
    /// (the service keeps it; a reload shows it again).
    private mutating func press(_ id: UInt32, label: String?) -> [Effect] {
        isClosed = true
        return [.press(id, label: label), .close]
    }

    /// Delete: the entry in `row`, or its group whole when `row` is a header.
    private mutating func dismiss(_ row: Int) -> [Effect] {
        let gone: [CenterEntry.Source]
        var groups = self.groups
        switch rows[row] {
        case .group(let g):
            gone = groups.remove(at: g).entries.map(\.source)
        case .entry(let g, let e):
            gone = [groups[g].entries.remove(at: e).source]
            if groups[g].entries.isEmpty { groups.remove(at: g) }
        }
        rebuild(groups)
        selectedButton = nil
        selected = rows.isEmpty ? nil : min(row, rows.count - 1)
        if let selected { keepVisible(selected) } else { offset = 0 }
        scroll(to: offset)
        return [.dismiss(gone), .redraw]
    }

    /// What the stores hold now: the chosen entry stays chosen where it is still there.
    private mutating func reload(_ entries: [CenterEntry]) -> [Effect] {
        let chosen = selected.flatMap(entry)?.source
        let groups = Self.grouped(entries)
        guard groups != self.groups else { return [] }
        rebuild(groups)
        let found = chosen.flatMap { source in rows.indices.first { entry($0)?.source == source } }
        if found == nil { selectedButton = nil }
        selected = found ?? (rows.isEmpty ? nil : min(selected ?? 0, rows.count - 1))
        if let selected { keepVisible(selected) }
        scroll(to: offset)
        return [.redraw]
    }

    private mutating func select(_ row: Int) -> [Effect] {
        guard !rows.isEmpty else { return [] }
        let row = min(max(row, 0), rows.count - 1)
        guard row != selected else { return [] }
        (selected, selectedButton) = (row, nil)
        keepVisible(row)
        return [.redraw]
    }

    /// Scrolls as little as shows row `row` whole.
    private mutating func keepVisible(_ row: Int) {
        if tops[row] < offset {
            offset = tops[row]
        } else if tops[row + 1] > offset + metrics.viewport {
            offset = tops[row + 1] - metrics.viewport
        }
        scroll(to: offset)
    }

    private mutating func scroll(to y: Int) {
        offset = min(max(y, 0), max(height - metrics.viewport, 0))
    }

    /// Lays the rows out for `groups`.
    private mutating func rebuild(_ groups: [Group]) {
        self.groups = groups
        rows = []
        tops = [0]
        rows.reserveCapacity(groups.count + count)
        tops.reserveCapacity(groups.count + count + 1)
        var y = 0
        for (g, group) in groups.enumerated() {
            rows.append(.group(g))
            y += metrics.group
            tops.append(y)
            for (e, entry) in group.entries.enumerated() {
                rows.append(.entry(g, e))
                y += metrics.entry + (entry.buttons.isEmpty ? 0 : metrics.buttons)
                tops.append(y)
            }
        }
    }
}

/// The centre's own sizes and words, in logical pixels (scaled as the toasts are): the one home
/// of its numbers. Colours, font, corners, border and buttons are the toasts' (`Style`).
public struct CenterLook: Sendable {
    /// The column's width (GNOME's and swaync's panels are about as wide).
    public var width = 400.0
    /// Between the column and its monitor's work area.
    public var margin = 12.0
    /// Around the header and the list.
    public var padding = 14.0
    /// The header's two lines: the title and "Clear all", the do-not-disturb switch.
    public var headerHeight = 84.0
    /// An application's header row.
    public var groupHeight = 32.0
    /// An entry: a title line and two of text.
    public var entryHeight = 74.0
    /// An entry's row of buttons.
    public var buttonsHeight = 36.0
    /// Above an entry's text, and below it.
    public var rowPadding = 8.0
    public var iconSize = 32.0
    public var iconGap = 12.0
    /// The unread mark beside a title.
    public var unreadDot = 6.0
    /// The do-not-disturb switch, and how far its knob sits inside it.
    public var switchHeight = 20.0
    public var switchWidth = 35.0
    public var switchKnobInset = 2.0
    public var clearAllWidth = 84.0
    /// Of the foreground's alpha: the chosen row, a chosen button, dim text, the group's rule,
    /// the switch's track.
    public var selectionOpacity = 0.14
    public var chosenButtonOpacity = 0.4
    public var faintTextOpacity = 0.65
    public var separatorOpacity = 0.25
    public var switchTrackOpacity = 0.3
    /// Icons held between frames, loaded once each while they stay.
    public var iconCacheLimit = 64
    public var title = "Notifications"
    public var pauseText = "Do not disturb"
    /// Before who holds notifications, beside the switch: "Held by obs".
    public var heldText = "Held by"
    public var clearAllText = "Clear all"
    public var emptyText = "No notifications"

    public static let standard = CenterLook()
}

extension Center.Key {
    /// The key an X keysym (`XLookupKeysym`'s, unshifted) asks for; nil for one the centre
    /// does not answer. vi's j and k move too, q closes, as in most X tools of this kind.
    public init?(keysym: UInt, shift: Bool) {
        switch keysym {
        case 0xff52, 0x6b: self = .up  // Up, k
        case 0xff54, 0x6a: self = .down  // Down, j
        case 0xff55: self = .pageUp
        case 0xff56: self = .pageDown
        case 0xff50: self = .home
        case 0xff57: self = .end
        case 0xff09, 0xfe20: self = .nextButton  // Tab, Shift+Tab
        case 0xff0d, 0xff8d, 0x20: self = .activate  // Return, KP_Enter, space
        case 0xffff, 0xff08: self = shift ? .dismissAll : .dismiss  // Delete, BackSpace
        case 0x64: self = .togglePause  // d
        case 0xff1b, 0x71: self = .close  // Escape, q
        default: return nil
        }
    }
}
