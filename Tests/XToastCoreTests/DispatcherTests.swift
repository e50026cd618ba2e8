import Testing

@testable import XToastCore

/// The notification service's dispatcher on a virtual clock, run through the service's own
/// driver (`Driver`), with a fake world of toast processes that start, take work, join the queue
/// and end when the test says. Nothing sleeps.
struct VirtualService {
    var driver: Driver<Dispatcher>
    var now = 0.0
    var effects: [Dispatcher.Effect] = []
    /// Processes alive: their pid and the notification they were handed (nil: a spare).
    var alive: [Int32: UInt32?] = [:]
    private var nextPID: Int32 = 100
    /// Starting a process fails while set.
    var startsFail = false
    /// Handing a command line fails while set (the spare went away).
    var handsFail = false

    init(limits: Dispatcher.Limits = Dispatcher.Limits()) {
        driver = Driver(Dispatcher(limits: limits))
        send(.start)
    }

    var dispatcher: Dispatcher { driver.machine }

    /// Hands `event` to the dispatcher now and answers its questions as the service does.
    @discardableResult
    mutating func send(_ event: Dispatcher.Event) -> [Dispatcher.Effect] {
        var produced: [Dispatcher.Effect] = []
        driver.handle(event, at: now)
        while let effect = driver.next(at: now) {
            produced.append(effect)
            driver.answer(answer(effect), at: now)
        }
        effects += produced
        return produced
    }

    private mutating func answer(_ effect: Dispatcher.Effect) -> [Dispatcher.Event] {
        switch effect {
        case .startSpare:
            guard !startsFail else { return [.spareStarted(nil)] }
            nextPID += 1
            alive[nextPID] = .some(nil)
            return [.spareStarted(nextPID)]
        case .hand(let id, _, let pid):
            guard !handsFail, alive[pid] != nil else { return [.handed(id, false)] }
            alive[pid] = id
            return [.handed(id, true)]
        case .endSpare(let pid):
            alive[pid] = nil
            return []
        default:
            return []
        }
    }

    /// Notification `id`, tagged `tag` (its own id's tag unless said), with the application's own
    /// `timeout` (closed when its toast's time is up; -1: the server's, kept after its toast).
    static func notification(
        _ id: UInt32, tag: String? = nil, bytes: Int? = nil, timeout: Int32 = 5000, actions: [String] = [], resident: Bool = false,
        time: Int = 0, picture: String? = nil, app: String = ""
    ) -> Dispatcher.Notification {
        var request = NotificationRequest()
        request.appName = app
        request.summary = "n\(id)"
        request.expireTimeout = timeout
        request.actions = actions
        request.hints.resident = resident
        if let tag { request.hints.stackTag = tag }
        let toast = NotificationToast(id: id, request: request, icon: picture)
        return Dispatcher.Notification(id: id, toast: toast, time: time, picture: picture, bytes: bytes)
    }

    @discardableResult
    mutating func notify(_ id: UInt32, tag: String? = nil) -> [Dispatcher.Effect] { send(.notify(Self.notification(id, tag: tag))) }

    /// Notification `id` as the server times it, with a default action and an Open button
    /// (`open`): shown and expired, so kept.
    @discardableResult
    mutating func keep(_ id: UInt32, resident: Bool = false, time: Int = 0, picture: String? = nil) -> [Dispatcher.Effect] {
        let actions = ["default", "", "open", "Open"]
        send(.notify(Self.notification(id, timeout: -1, actions: actions, resident: resident, time: time, picture: picture)))
        queued(id)
        return end(id)
    }

    /// The user's call on `id`.
    @discardableResult
    mutating func user(_ id: UInt32, _ call: Dispatcher.UserCall) -> [Dispatcher.Effect] { send(.user(id, call)) }

    /// The process that has notification `id`.
    func pid(of id: UInt32) -> Int32? { alive.first { $0.value == id }?.key }

    /// The process of `id` says its place is on the server.
    @discardableResult
    mutating func queued(_ id: UInt32) -> [Dispatcher.Effect] { send(.queued(pid(of: id)!)) }

    /// The process of `id` ends, having written `outcome` (`--print-outcome`'s word).
    @discardableResult
    mutating func end(_ id: UInt32, outcome: [String] = ["expired"], queued: Bool = true, status: Int32 = 0) -> [Dispatcher.Effect] {
        let pid = pid(of: id)!
        alive[pid] = nil
        let report = outcome.isEmpty && !queued ? nil : NotificationChild.Report(queued: queued, outcome: outcome)
        return send(.ended(pid, report: report, status: status))
    }

    /// Moves the clock to each deadline up to `time`, ticking there. A tick must move the
    /// deadline on: one that stays where it is would spin the service's one timer.
    mutating func advance(to time: Double) {
        while let deadline = dispatcher.deadline, deadline <= time, !dispatcher.isFinished {
            now = max(now, deadline)
            send(.tick)
            if let next = dispatcher.deadline, next <= now {
                Issue.record("the deadline \(next) stays at or before now (\(now)) after a tick: the timer would spin")
                return
            }
        }
        now = max(now, time)
    }

    /// The ids handed out, in order.
    var handed: [UInt32] { effects.compactMap { if case .hand(let id, _, _) = $0 { id } else { nil } } }
    /// The `NotificationClosed` signals, in order.
    var closed: [(UInt32, NotificationClosedReason)] {
        effects.compactMap { if case .closed(let id, let reason) = $0 { (id, reason) } else { nil } }
    }
}

@Suite("Dispatcher: the notification service's decisions")
struct DispatcherTests {
    @Test("A spare is ready before the first notification; it takes the first one")
    func spareFirst() {
        var v = VirtualService()
        #expect(v.effects == [.startSpare])
        let spare = v.alive.keys.first!
        let effects = v.notify(1)
        #expect(effects.first.map { if case .hand(1, _, spare) = $0 { true } else { false } } == true)
    }

    @Test("One at a time into the queue, in the order they came: the next goes once the last is queued")
    func orderAndOneAtATime() {
        var v = VirtualService()
        for id in 1...5 { v.notify(UInt32(id)) }
        #expect(v.handed == [1], "the next waits for the first's place in the queue")
        for id in 1...4 { v.queued(UInt32(id)) }
        #expect(v.handed == [1, 2, 3, 4, 5])
        // A spare is started only once nothing is joining.
        #expect(v.effects.filter { $0 == .startSpare }.count == 5)
    }

    @Test("A process that takes longer than the bound to join holds the others no longer")
    func joinBound() {
        var v = VirtualService()
        v.notify(1)
        v.notify(2)
        v.advance(to: 4.9)
        #expect(v.handed == [1])
        v.advance(to: 5.1)
        #expect(v.handed == [1, 2])
        #expect(v.effects.contains { if case .warn = $0 { true } else { false } })
    }

    @Test("At most 32 processes alive; the rest wait, none is lost")
    func runningLimit() {
        var v = VirtualService()
        for id in 1...40 {
            v.notify(UInt32(id))
            v.queued(UInt32(id > 32 ? 32 : id))
        }
        #expect(v.handed.count == 32)
        #expect(v.alive.count == 32)
        v.end(1)
        #expect(v.handed.count == 33)
        for id in 2...40 {
            if v.pid(of: UInt32(id)) == nil { continue }
            v.queued(UInt32(id))
            v.end(UInt32(id))
        }
        // Every one got its turn and its signal.
        while let next = v.dispatcher.line.first {
            v.queued(next)
            v.end(next)
        }
        #expect(Set(v.closed.map(\.0)) == Set(1...40))
    }

    @Test("Past the bound of waiting notifications the oldest waiting is closed, expired, with its signal")
    func waitingBound() {
        var limits = Dispatcher.Limits()
        limits.waiting = 10
        var v = VirtualService(limits: limits)
        for id in 1...20 { v.notify(UInt32(id)) }
        // 1 was handed out; 2…20 came for 10 places.
        #expect(v.dispatcher.line.count == 10)
        #expect(v.closed.map(\.0) == Array(2...10))
        #expect(v.closed.allSatisfy { $0.1 == .expired })
    }

    @Test("Past the bound of bytes kept the oldest waiting is closed too")
    func byteBound() {
        var limits = Dispatcher.Limits()
        limits.waitingBytes = 1000
        var v = VirtualService(limits: limits)
        v.notify(1)
        for id in 2...6 { v.send(.notify(VirtualService.notification(UInt32(id), bytes: 400))) }
        #expect(v.dispatcher.line == [5, 6])
        #expect(v.closed.map(\.0) == [2, 3, 4])
    }

    @Test("CloseNotification: a waiting one is closed at once (3); one on screen is dismissed and closed by its end (3)")
    func close() {
        var v = VirtualService()
        v.notify(1)
        v.notify(2)
        #expect(v.send(.close(2)) == [.closed(2, .closedByCall)])
        let pid = v.pid(of: 1)!
        #expect(v.send(.close(1)) == [.dismiss(pid)])
        v.end(1, outcome: ["dismissed"])
        #expect(v.closed.map(\.1) == [.closedByCall, .closedByCall])
        #expect(v.send(.close(7)).isEmpty, "one that is gone is no error")
    }

    @Test("Closed within a millisecond of its Notify, before its process has joined: dismissed, closed by the call")
    func closeWhileJoining() {
        var v = VirtualService()
        v.notify(1)
        let pid = v.pid(of: 1)!
        #expect(v.send(.close(1)) == [.dismiss(pid)])
        // It ends without a word (dismissed before it could say anything): no second try.
        v.end(1, outcome: [], queued: false, status: 0)
        #expect(v.closed.map(\.1) == [.closedByCall])
        #expect(v.handed == [1])
    }

    @Test("Replaced while waiting: the new one takes its place in line; on screen with its tag: it follows without a dismissal")
    func replace() {
        var v = VirtualService()
        v.notify(1)
        v.notify(2)
        v.notify(3)
        v.notify(2)
        v.queued(1)
        v.queued(2)
        #expect(v.handed == [1, 2, 3])
        // Notification 1 again, same tag: no dismissal, the old process's end is no one's.
        let old = v.pid(of: 1)!
        let effects = v.notify(1)
        #expect(!effects.contains(.dismiss(old)))
        v.alive[old] = nil
        #expect(v.send(.ended(old, report: NotificationChild.Report(queued: true, outcome: ["replaced"]), status: 0)).isEmpty)
        // With another tag, the old one is dismissed.
        v.queued(3)
        let other = v.pid(of: 3)!
        #expect(v.send(.notify(VirtualService.notification(3, tag: "volume"))).contains(.dismiss(other)))
    }

    @Test("A process that ends before joining, without a word (a stalled server), hands its notification out again, twice")
    func retry() {
        var v = VirtualService()
        v.notify(1)
        v.notify(2)
        v.end(1, outcome: [], queued: false, status: 1)
        #expect(v.handed == [1, 1], "again, before 2")
        v.end(1, outcome: [], queued: false, status: 1)
        #expect(v.handed == [1, 1, 1])
        #expect(v.closed.isEmpty)
        v.end(1, outcome: [], queued: false, status: 1)
        #expect(v.closed.map { $0.0 } == [1] && v.closed.first?.1 == .undefined)
        #expect(v.handed == [1, 1, 1, 2])
        // One that had its place in the queue is no second try: it was shown.
        v.queued(2)
        v.end(2, outcome: [], queued: true, status: 1)
        #expect(v.handed == [1, 1, 1, 2])
    }

    @Test("An action reaches the application: the click's time with it; a button's key")
    func actions() {
        var v = VirtualService()
        var request = NotificationRequest()
        request.actions = ["default", "", "reply", "Reply"]
        v.send(.notify(Dispatcher.Notification(id: 4, toast: NotificationToast(id: 4, request: request, icon: nil))))
        let pid = v.pid(of: 4)!
        v.alive[pid] = nil
        let effects = v.send(
            .ended(pid, report: NotificationChild.Report(queued: true, outcome: ["button", "Reply"], clickTime: 77), status: 0))
        // Not resident: closed once its action is taken.
        #expect(effects.prefix(2) == [.invoke(4, action: "reply", clickTime: 77), .closed(4, .dismissed)])
    }

    @Test("A reply reaches the application as NotificationReplied, then the notification closes")
    func replies() {
        var v = VirtualService()
        var request = NotificationRequest()
        request.actions = ["inline-reply", "Reply"]
        v.send(.notify(Dispatcher.Notification(id: 4, toast: NotificationToast(id: 4, request: request, icon: nil))))
        let pid = v.pid(of: 4)!
        v.alive[pid] = nil
        let effects = v.send(
            .ended(pid, report: NotificationChild.Report(queued: true, outcome: ["replied", "On my way"], clickTime: 7), status: 0))
        #expect(effects.prefix(2) == [.replied(4, text: "On my way"), .closed(4, .dismissed)])
    }

    @Test("Idle for the idle time: the name goes; a call sent before is still served, and the service exits after it")
    func leaving() {
        var v = VirtualService()
        v.advance(to: 29.9)
        #expect(!v.effects.contains(.releaseName))
        v.advance(to: 30)
        #expect(v.effects.contains(.releaseName))
        #expect(v.effects.contains { if case .endSpare = $0 { true } else { false } })
        // A Notify that was on its way.
        v.notify(9)
        v.send(.released)
        #expect(!v.effects.contains(.exit))
        #expect(v.handed == [9])
        v.queued(9)
        v.end(9)
        #expect(!v.effects.contains(.exit), "it lingers: a client bound to its own connection may still send")
        v.advance(to: 30 + v.dispatcher.limits.linger)
        #expect(v.effects.last == .exit)
        #expect(v.closed.map(\.0) == [9])
        // One sent within the linger is served too.
        var late = VirtualService()
        late.advance(to: 30)
        late.send(.released)
        late.advance(to: 30.5)
        late.notify(3)
        late.advance(to: 40)
        #expect(!late.effects.contains(.exit))
        late.queued(3)
        late.end(3)
        #expect(late.effects.last == .exit)
    }

    @Test("A call that needs the name after its release: taken back, the service serves on, and leaves again when idle")
    func reclaimed() {
        var v = VirtualService()
        #expect(!v.dispatcher.hasReleasedName)
        v.advance(to: 30)
        #expect(v.dispatcher.hasReleasedName, "releasing")
        v.send(.released)
        #expect(v.dispatcher.hasReleasedName, "leaving")
        v.advance(to: 30.5)
        v.send(.reclaimed)
        #expect(!v.dispatcher.hasReleasedName)
        v.notify(9)
        v.queued(9)
        v.end(9)
        let ended = v.now
        v.advance(to: 45)
        #expect(!v.effects.contains(.exit), "serving: no linger ends it")
        v.effects = []
        v.advance(to: ended + v.dispatcher.limits.idleTime - 0.1)
        #expect(!v.effects.contains(.releaseName))
        v.advance(to: ended + v.dispatcher.limits.idleTime)
        #expect(v.effects.contains(.releaseName), "idle again for the idle time")
        // Taken back with nothing to do, it is idle at once.
        var idle = VirtualService()
        idle.advance(to: 30)
        idle.send(.reclaimed)
        idle.effects = []
        idle.advance(to: 60)
        #expect(idle.effects.contains(.releaseName))
        // A call passed on to the service that has the name now keeps it until its answer.
        var passing = VirtualService()
        passing.advance(to: 30)
        passing.send(.released)
        passing.send(.passingOn(true))
        passing.advance(to: 35)
        #expect(!passing.effects.contains(.exit), "the answer is still to come")
        passing.send(.passingOn(false))
        #expect(passing.effects.last == .exit)
        // Serving, the word changes nothing.
        var serving = VirtualService()
        serving.send(.reclaimed)
        serving.advance(to: 29.9)
        #expect(!serving.effects.contains(.releaseName))
    }

    @Test("Processes that cannot start: what waits is closed, not kept for ever")
    func cannotStart() {
        var v = VirtualService()
        let spare = v.alive.keys.first!
        v.alive[spare] = nil
        v.startsFail = true
        v.send(.ended(spare, report: nil, status: 1))
        v.notify(1)
        v.notify(2)
        #expect(Set(v.closed.map(\.0)) == [1, 2])
        #expect(v.closed.allSatisfy { $0.1 == .undefined })
    }

    @Test("The display gone: every notification closed, the name released, the service ends")
    func displayGone() {
        var v = VirtualService()
        v.notify(1)
        v.notify(2)
        let effects = v.send(.displayGone)
        #expect(Set(v.closed.map(\.0)) == [1, 2])
        #expect(effects.suffix(2) == [.releaseName, .exit])
        #expect(v.dispatcher.isFinished)
    }
}

@Suite("Dispatcher: what rules keep off the screen (popup = false, drop = true)")
struct DispatcherArrivalTests {
    static func arriving(_ id: UInt32, _ arrival: NotificationRule.Arrival, picture: String? = nil) -> Dispatcher.Notification {
        var notification = VirtualService.notification(id, timeout: -1, time: 50, picture: picture, app: "backup")
        notification.toast.arrival = arrival
        return notification
    }

    @Test("popup = false: kept at once and recorded, never handed to a process; the service stays idle")
    func quietIsKeptUnseen() {
        var v = VirtualService()
        let effects = v.send(.notify(Self.arriving(1, .quiet)))
        #expect(effects.contains { if case .keep(let kept) = $0 { kept.id == 1 } else { false } })
        #expect(effects.contains { if case .record(let entry) = $0 { entry.ending == "quiet" && !entry.shown } else { false } })
        #expect(v.handed.isEmpty && v.closed.isEmpty)
        #expect(v.dispatcher.kept[1] != nil && v.dispatcher.isEmpty)
        // Its button still reaches the application from the centre.
        v.advance(to: 30)
        #expect(v.effects.contains(.releaseName))
    }

    @Test("drop = true: closed as dismissed at once, nothing kept or shown, its picture removed")
    func droppedIsClosed() {
        var v = VirtualService()
        let effects = v.send(.notify(Self.arriving(1, .dropped, picture: "/p")))
        #expect(v.closed.map(\.0) == [1] && v.closed.first?.1 == .dismissed)
        #expect(effects.contains(.removePicture("/p")))
        #expect(v.handed.isEmpty && v.dispatcher.kept.isEmpty)
        #expect(!effects.contains { if case .record = $0 { true } else { false } })
    }

    @Test("popup = false with nothing kept (keep-notifications = 0): in the history, closed as expired")
    func quietWithNothingKept() {
        var limits = Dispatcher.Limits()
        limits.kept = 0
        var v = VirtualService(limits: limits)
        let effects = v.send(.notify(Self.arriving(1, .quiet)))
        #expect(effects.contains { if case .record = $0 { true } else { false } })
        #expect(v.closed.map(\.1) == [.expired] && v.dispatcher.kept.isEmpty)
    }

    @Test("A quiet one's press still reaches its application")
    func quietOnesActionsWork() {
        var v = VirtualService()
        var notification = Self.arriving(1, .quiet)
        notification = Dispatcher.Notification(
            id: 1, toast: VirtualService.notification(1, timeout: -1, actions: ["default", "", "open", "Open"], app: "backup").toast,
            time: 50)
        notification.toast.arrival = .quiet
        v.send(.notify(notification))
        let effects = v.user(1, .press(label: "Open", clickTime: nil))
        #expect(effects.contains(.invoke(1, action: "open", clickTime: nil)))
    }
}

@Suite("Dispatcher: the commands rules run (run = …)")
struct DispatcherCommandTests {
    static func running(_ id: UInt32, _ commands: [[String]]) -> Dispatcher.Notification {
        var notification = VirtualService.notification(id, app: "deploy")
        notification.toast.commands = commands
        notification.toast.commandEnvironment = ["XTOAST_ID=\(id)"]
        return notification
    }

    static func started(_ effects: [Dispatcher.Effect]) -> [Int] {
        effects.compactMap { if case .runCommand(let id, _, _) = $0 { id } else { nil } }
    }

    static func warnings(_ effects: [Dispatcher.Effect]) -> [String] {
        effects.compactMap { if case .warn(let line) = $0 { line } else { nil } }
    }

    @Test("Each matching rule's command runs as the notification comes, told its fields; a success says nothing")
    func commandsRunAndSucceedQuietly() {
        var v = VirtualService()
        let effects = v.send(.notify(Self.running(1, [["touch", "/x"], ["true"]])))
        #expect(effects.contains(.runCommand(1, command: ["touch", "/x"], environment: ["XTOAST_ID=1"])))
        #expect(Self.started(effects) == [1, 2])
        // The toast is handed out all the same: the commands never hold it.
        #expect(v.handed == [1])
        #expect(Self.warnings(v.send(.commandEnded(1, .status(0)))).isEmpty)
        #expect(v.dispatcher.commands.running.count == 1)
    }

    @Test("A failing command, or one that cannot start, is one warning each")
    func failuresAreOneWarning() {
        var v = VirtualService()
        v.send(.notify(Self.running(1, [["false"], ["missing-command"]])))
        #expect(Self.warnings(v.send(.commandEnded(1, .status(1)))) == [#"a rule's command "false" ended with status 1"#])
        #expect(
            Self.warnings(v.send(.commandEnded(2, .couldNotStart("no such file"))))
                == [#"cannot run a rule's command "missing-command": no such file"#])
        #expect(Self.warnings(v.send(.commandEnded(2, .status(1)))).isEmpty)
    }

    @Test("Past its time a command is killed, once, with a warning; the service does not leave while one runs")
    func aCommandThatNeverEndsIsKilled() {
        var v = VirtualService()
        v.send(.notify(Self.running(1, [["sleep", "1000"]])))
        v.queued(1)
        v.end(1)
        #expect(!v.dispatcher.isEmpty)
        v.advance(to: 29)
        #expect(!v.effects.contains(.killCommand(1)))
        v.advance(to: 31)
        #expect(v.effects.filter { $0 == .killCommand(1) }.count == 1)
        // Still no release: the killed command has not ended yet.
        v.advance(to: 100)
        #expect(!v.effects.contains(.releaseName))
        #expect(Self.warnings(v.send(.commandEnded(1, .status(137)))) == [#"a rule's command "sleep" ran over 30 s and was killed"#])
        v.advance(to: v.now + 31)
        #expect(v.effects.contains(.releaseName))
    }

    @Test("At most 8 run at once: past that one is not run, with a warning")
    func runningCommandsAreBounded() {
        var v = VirtualService()
        var started: [Int] = []
        var warned: [String] = []
        for id in UInt32(1)...10 {
            let effects = v.send(.notify(Self.running(id, [["sleep", "1"]])))
            started += Self.started(effects)
            warned += Self.warnings(effects)
        }
        #expect(started.count == 8)
        #expect(warned == Array(repeating: #"a rule's command "sleep" is not run: 8 are running"#, count: 2))
    }
}

@Suite("Dispatcher: quiet that stays quiet (what comes during a pause, then one summary)")
struct DispatcherQuietTests {
    static func from(_ app: String, _ id: UInt32) -> Dispatcher.Notification {
        VirtualService.notification(id, timeout: -1, time: Int(id), app: app)
    }

    /// Paused until resumed, with Signal's 1 and 2 and Mail's 3 come meanwhile.
    static func away(_ limits: Dispatcher.Limits = Dispatcher.Limits()) -> VirtualService {
        var v = VirtualService(limits: limits)
        v.send(.paused(until: .infinity))
        for notification in [from("Signal", 1), from("Signal", 2), from("Mail", 3)] { v.send(.notify(notification)) }
        return v
    }

    static func handedArguments(_ v: VirtualService) -> [[String]] {
        v.effects.compactMap { if case .hand(_, let arguments, _) = $0 { arguments } else { nil } }
    }

    @Test("During a pause an application's notification is kept unseen, in the history; a critical one goes on")
    func heldWhilePaused() {
        var v = Self.away()
        #expect(v.handed.isEmpty && v.dispatcher.kept.count == 3)
        #expect(v.effects.filter { if case .record(let entry) = $0 { entry.ending == "quiet" } else { false } }.count == 3)
        var request = NotificationRequest()
        (request.appName, request.summary) = ("Pager", "Down")
        request.hints.urgency = 2
        v.send(.notify(Dispatcher.Notification(id: 4, toast: NotificationToast(id: 4, request: request, icon: nil))))
        #expect(v.handed == [4])
    }

    @Test("As it ends: one summary toast by application, its click the centre; nobody hears of its end")
    func oneSummary() {
        var v = Self.away()
        v.send(.paused(until: nil))
        guard v.handed == [Dispatcher.summaryID] else {
            Issue.record("handed \(v.handed), not the summary alone")
            return
        }
        let arguments = Self.handedArguments(v).last ?? []
        #expect(arguments.suffix(4) == ["--title", "While you were away: 3", "--", "Signal 2, Mail 1"])
        #expect(arguments.contains("--action"))
        // Still kept, in the centre.
        #expect(v.dispatcher.kept.count == 3)
        v.queued(Dispatcher.summaryID)
        let clicked = v.end(Dispatcher.summaryID, outcome: ["action"])
        #expect(clicked.contains(.openCenter))
        #expect(v.closed.isEmpty)
    }

    @Test("A summary that expires opens nothing and closes nothing")
    func summaryExpires() {
        var v = Self.away()
        v.send(.paused(until: nil))
        guard v.handed == [Dispatcher.summaryID] else {
            Issue.record("handed \(v.handed), not the summary alone")
            return
        }
        v.queued(Dispatcher.summaryID)
        let effects = v.end(Dispatcher.summaryID)
        #expect(!effects.contains(.openCenter) && v.closed.isEmpty && v.dispatcher.isEmpty)
    }

    @Test("Fewer than three, or after-quiet = replay: each shows as itself, out of the store")
    func fewOrReplay() {
        var v = Self.away()
        v.user(2, .dismiss)
        v.send(.paused(until: nil))
        #expect(v.handed == [1])
        #expect(v.effects.contains(.forget(1)) && v.effects.contains(.forget(3)))
        var limits = Dispatcher.Limits()
        limits.afterQuiet = .replay
        var replay = Self.away(limits)
        replay.send(.paused(until: nil))
        #expect(replay.handed == [1])
        replay.queued(1)
        // Signal's second joins its first as a burst does, a second after it showed; then Mail's.
        replay.advance(to: replay.now + 1)
        #expect(replay.handed.prefix(2) == [1, 2])
    }

    @Test("A summary dismissed before it showed: nobody hears of it either")
    func summaryDismissedWhileWaiting() {
        var limits = Dispatcher.Limits()
        limits.running = 1
        var v = Self.away(limits)
        // A critical one goes through the pause and takes the one process there may be.
        var request = NotificationRequest()
        (request.appName, request.summary) = ("Pager", "Down")
        request.hints.urgency = 2
        v.send(.notify(Dispatcher.Notification(id: 4, toast: NotificationToast(id: 4, request: request, icon: nil))))
        v.queued(4)
        v.send(.paused(until: nil))
        #expect(v.handed == [4])
        v.send(.dismissAll)
        #expect(!v.closed.contains { $0.0 == Dispatcher.summaryID })
        #expect(v.dispatcher.place(of: Dispatcher.summaryID) == nil)
    }

    @Test("A second pause's summary replaces the first's in its place, on screen or waiting")
    func secondSummaryReplacesTheFirst() {
        var v = Self.away()
        v.send(.paused(until: nil))
        v.queued(Dispatcher.summaryID)
        v.send(.paused(until: .infinity))
        for notification in [Self.from("D", 4), Self.from("E", 5), Self.from("F", 6)] { v.send(.notify(notification)) }
        v.send(.paused(until: nil))
        // The first's process is told nothing: the second takes its place by its tag.
        #expect(!v.effects.contains { if case .dismiss = $0 { true } else { false } })
        #expect(v.handed == [Dispatcher.summaryID, Dispatcher.summaryID])
        #expect(Self.handedArguments(v).last?.suffix(4) == ["--title", "While you were away: 3", "--", "D 1, E 1, F 1"])
        #expect(v.closed.isEmpty)
    }

    @Test("With nothing kept (keep-notifications = 0) a pause holds nothing back: each waits its turn, never lost")
    func nothingKeptNothingHeld() {
        var limits = Dispatcher.Limits()
        limits.kept = 0
        let v = Self.away(limits)
        #expect(v.handed == [1])
        #expect(v.closed.isEmpty)
    }

    @Test("A timed pause ends at its time, with nobody saying so")
    func timedPause() {
        var v = VirtualService()
        v.send(.paused(until: 10))
        for notification in [Self.from("A", 1), Self.from("B", 2), Self.from("C", 3)] { v.send(.notify(notification)) }
        #expect(v.dispatcher.deadline == 10)
        v.advance(to: 9)
        #expect(v.handed.isEmpty)
        v.advance(to: 10)
        #expect(v.handed == [Dispatcher.summaryID])
        #expect(!v.dispatcher.quiet.holds)
    }

    @Test("An application's inhibition holds like a pause, keeps the service, and ends with its summary")
    func inhibitions() {
        var v = VirtualService()
        v.send(.inhibit(7))
        for notification in [Self.from("A", 1), Self.from("B", 2), Self.from("C", 3)] { v.send(.notify(notification)) }
        #expect(v.handed.isEmpty && v.dispatcher.kept.count == 3)
        // A pause meanwhile, ended before the inhibition: still quiet.
        v.send(.paused(until: .infinity))
        v.send(.paused(until: nil))
        #expect(v.handed.isEmpty)
        // The service stays while an application inhibits, however long.
        v.advance(to: 600)
        #expect(!v.effects.contains(.releaseName))
        #expect(v.send(.uninhibit(8)).isEmpty)
        v.send(.uninhibit(7))
        #expect(v.handed == [Dispatcher.summaryID])
    }

    @Test("A summary names five applications, the rest as …")
    func summaryText() {
        let notifications = (1...7).map { Self.from("App\($0)", UInt32($0)) } + [Self.from("App1", 8)]
        let toast = NotificationToast(summaryOf: notifications)
        #expect(toast.summary == "While you were away: 8")
        #expect(toast.body == "App1 2, App2 1, App3 1, App4 1, App5 1, …")
    }
}

@Suite("Dispatcher: notifications kept after their toasts (persistence)")
struct DispatcherKeptTests {
    @Test("Its toast's time up (the server's time): kept, not closed; it holds no process and keeps no service running")
    func keptAfterItsToast() {
        var v = VirtualService()
        let effects = v.keep(1)
        #expect(effects.contains { if case .keep(let kept) = $0 { kept.id == 1 } else { false } })
        #expect(v.closed.isEmpty)
        #expect(v.dispatcher.kept[1] != nil)
        #expect(v.dispatcher.isEmpty)
        v.advance(to: v.now + 30)
        #expect(v.effects.contains(.releaseName))
    }

    @Test("The application's own time, or transient: closed when its toast's time is up")
    func closedWithTheirOwnTime() {
        var v = VirtualService()
        v.send(.notify(VirtualService.notification(1, timeout: 3000)))
        v.queued(1)
        v.end(1)
        var request = NotificationRequest()
        request.hints.transient = true
        v.send(.notify(Dispatcher.Notification(id: 2, toast: NotificationToast(id: 2, request: request, icon: nil))))
        v.queued(2)
        v.end(2)
        #expect(v.closed.map(\.0) == [1, 2] && v.closed.allSatisfy { $0.1 == .expired })
        #expect(v.dispatcher.kept.isEmpty)
    }

    @Test("CloseNotification on a kept one: out of the store, closed by the call (3), its picture removed")
    func closeKept() {
        var v = VirtualService()
        v.keep(1, picture: "/run/p.png")
        #expect(v.send(.close(1)) == [.forget(1), .closed(1, .closedByCall), .removePicture("/run/p.png")])
        #expect(v.dispatcher.kept.isEmpty)
    }

    @Test("A press on a kept one: its action reaches the application, then it closes (2); the default action, or a button's")
    func pressKept() {
        var v = VirtualService()
        v.keep(1)
        v.keep(2)
        #expect(
            v.user(1, .press(label: nil, clickTime: 9)) == [
                .invoke(1, action: "default", clickTime: 9), .forget(1), .closed(1, .dismissed), .answer(.done),
            ])
        #expect(
            v.user(2, .press(label: "Open", clickTime: nil)).prefix(3) == [
                .invoke(2, action: "open", clickTime: nil), .forget(2), .closed(2, .dismissed),
            ])
        #expect(v.dispatcher.kept.isEmpty)
    }

    @Test("A press it cannot take is answered so, and changes nothing")
    func pressRefused() {
        var v = VirtualService()
        v.keep(1)
        #expect(v.user(1, .press(label: "Nope", clickTime: nil)) == [.answer(.noAction(1, label: "Nope"))])
        #expect(v.user(5, .press(label: nil, clickTime: nil)) == [.answer(.unknown(5))])
        #expect(v.user(5, .dismiss) == [.answer(.unknown(5))])
        #expect(v.dispatcher.kept[1] != nil)
    }

    @Test("Resident: an action taken from its toast or from the store leaves it kept, with no NotificationClosed")
    func resident() {
        var v = VirtualService()
        v.send(.notify(VirtualService.notification(1, timeout: -1, actions: ["next", "Next"], resident: true)))
        v.queued(1)
        v.end(1, outcome: ["button", "Next"])
        #expect(v.effects.contains(.invoke(1, action: "next", clickTime: nil)))
        #expect(v.closed.isEmpty && v.dispatcher.kept[1] != nil)
        #expect(v.user(1, .press(label: "Next", clickTime: nil)) == [.invoke(1, action: "next", clickTime: nil), .answer(.done)])
        #expect(v.dispatcher.kept[1] != nil)
        v.user(1, .dismiss)
        #expect(v.closed.map(\.1) == [.dismissed])
    }

    @Test("Dismissed from the store: closed (2)")
    func dismissKept() {
        var v = VirtualService()
        v.keep(3)
        #expect(v.user(3, .dismiss) == [.forget(3), .closed(3, .dismissed), .answer(.done)])
    }

    @Test("Shown again: out of the store, handed to a process, its buttons live; its time up again, kept again")
    func reshow() {
        var v = VirtualService()
        v.keep(1)
        let effects = v.user(1, .reshow)
        #expect(effects.first == .forget(1))
        #expect(v.handed == [1, 1])
        #expect(v.dispatcher.kept[1] == nil)
        v.queued(1)
        let ended = v.end(1, outcome: ["button", "Open"])
        #expect(ended.prefix(2) == [.invoke(1, action: "open", clickTime: nil), .closed(1, .dismissed)])
        v.keep(2)
        v.user(2, .reshow)
        v.queued(2)
        v.end(2)
        #expect(v.dispatcher.kept[2] != nil && !v.closed.contains { $0.0 == 2 })
    }

    @Test("A press on one still on screen: its toast dismissed; at its end the action, then closed (2)")
    func pressOnScreen() {
        var v = VirtualService()
        v.send(.notify(VirtualService.notification(1, timeout: 0, actions: ["open", "Open"])))
        v.queued(1)
        let pid = v.pid(of: 1)!
        #expect(v.user(1, .press(label: "Open", clickTime: 4)) == [.dismiss(pid), .answer(.done)])
        v.end(1, outcome: ["dismissed"])
        #expect(v.effects.contains(.invoke(1, action: "open", clickTime: 4)))
        #expect(v.closed.map(\.1) == [.dismissed])
        // One still waiting for its turn ends at once.
        v.send(.notify(VirtualService.notification(2, timeout: 0)))
        v.send(.notify(VirtualService.notification(3, timeout: 0)))
        #expect(v.user(3, .dismiss).contains(.closed(3, .dismissed)))
        #expect(v.dispatcher.place(of: 3) == nil)
    }

    @Test("What one service kept, the next acts on: recalled from the store at its start")
    func recalledAcrossServices() {
        var first = VirtualService()
        first.keep(7, time: 1000)
        let stored = first.dispatcher.kept.values.map { $0 }
        var second = VirtualService()
        second.send(.recalled(stored, wallTime: 1100))
        #expect(second.user(7, .press(label: "Open", clickTime: nil)).first == .invoke(7, action: "open", clickTime: nil))
        #expect(second.closed.map(\.0) == [7])
    }

    @Test("Bounds: past the count the oldest kept closes, expired; older than the age, expired when recalled")
    func keptBounds() {
        var limits = Dispatcher.Limits()
        limits.kept = 3
        var v = VirtualService(limits: limits)
        for id in 1...5 { v.keep(UInt32(id), time: 100 + id) }
        #expect(v.closed.map(\.0) == [1, 2] && v.closed.allSatisfy { $0.1 == .expired })
        #expect(Set(v.dispatcher.kept.keys) == [3, 4, 5])
        #expect(v.effects.contains(.forget(1)))
        var later = VirtualService()
        let old = VirtualService.notification(9, timeout: -1, time: 0)
        let young = VirtualService.notification(10, timeout: -1, time: 90_000)
        later.send(.recalled([old, young], wallTime: 90_000))
        #expect(later.closed.map(\.0) == [9] && later.closed.first?.1 == .expired)
        #expect(later.dispatcher.kept[10] != nil)
    }

    @Test("A Notify replacing a kept one: out of the store, on screen again, no NotificationClosed")
    func replaceKept() {
        var v = VirtualService()
        v.keep(1, picture: "/run/old.png")
        let effects = v.send(.notify(VirtualService.notification(1, timeout: -1)))
        #expect(effects.prefix(2) == [.forget(1), .removePicture("/run/old.png")])
        #expect(v.handed == [1, 1])
        #expect(v.closed.isEmpty)
    }
}

@Suite("The store of kept notifications: its files read back, and hostile ones do not")
struct KeptNotificationsTests {
    static let sample: Dispatcher.Notification = {
        var request = NotificationRequest()
        request.appName = "Mail\tApp"
        request.summary = "New\nmessage"
        request.body = "<b>Hi</b> & bye"
        request.actions = ["default", "", "reply", "Reply", "archive", "Archive"]
        request.hints.resident = true
        let toast = NotificationToast(id: 42, request: request, icon: "/run/x.png")
        return Dispatcher.Notification(id: 42, toast: toast, time: 1_800_000_000, picture: "/run/x.png")
    }()

    @Test func readsBackWhatItWrote() {
        let bytes = KeptNotifications.encode(Self.sample)
        let read = KeptNotifications.decode(bytes)
        var expected = Self.sample.toast
        expected.group = nil  // a kept one joins no burst
        #expect(read?.toast == expected)
        #expect(read?.id == 42 && read?.time == 1_800_000_000 && read?.picture == "/run/x.png")
        #expect(read?.toast.whenActed == .kept && read?.toast.whenExpired == .kept)
        #expect(bytes.filter { $0 == UInt8(ascii: "\n") }.count == 1)
    }

    @Test(
        "A file that does not read is skipped",
        arguments: [
            "", "garbage", "id=0\tt=1", "id=1\tt=1\texpired=kept\tacted=closed\ttag=fdn-1\tapp=\tsummary=\tbody=\targ=--\targ=x\tbad\\q",
            "id=1\tt=-5\texpired=kept\tacted=closed\ttag=fdn-1\tapp=\tsummary=\tbody=\targ=--\targ=x",
            "id=1\tt=1\texpired=maybe\tacted=closed\ttag=fdn-1\tapp=\tsummary=\tbody=\targ=--\targ=x",
            // A command line with an option the service never writes: never run.
            "id=1\tt=1\texpired=kept\tacted=closed\ttag=fdn-1\tapp=\tsummary=\tbody=\targ=--run\targ=--\targ=rm -rf ~",
            "id=1\tt=1\texpired=kept\tacted=closed\ttag=fdn-1\tapp=\tsummary=\tbody=\targ=--stdin\targ=--\targ=x",
            "id=1\tt=1\texpired=kept\tacted=closed\ttag=fdn-1\tapp=\tsummary=\tbody=\targ=x",
            "id=1\tt=1\texpired=kept\tacted=closed\ttag=fdn-1\tapp=\tsummary=\tbody=\tkey=a\targ=--\targ=x",
        ]
    )
    func refusesWhatDoesNotRead(_ text: String) {
        #expect(KeptNotifications.decode(Array(text.utf8)) == nil)
    }

    @Test func boundedBySize() {
        var huge = Self.sample
        huge.toast.arguments[huge.toast.arguments.count - 1] = String(repeating: "x", count: KeptNotifications.fileByteLimit)
        #expect(KeptNotifications.decode(KeptNotifications.encode(huge)) == nil)
        #expect(KeptNotifications.decode([0xff, 0xfe]) == nil)
    }

    @Test func listsNewestFirstAsOneLineEach() {
        var older = Self.sample
        older.id = 3
        older.time -= 60
        let lines = KeptNotifications.lines([older, Self.sample]) { "t\($0 % 100)" }
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("kept       id 42  t0  Mail App: New message — Hi & bye  buttons: Reply, Archive"), "\(lines)")
        #expect(lines[1].contains("id 3"))
        let json = KeptNotifications.json([Self.sample])
        #expect(
            json == [
                #"{"state":"kept","id":42,"time":1800000000,"app":"Mail App","summary":"New message","body":"Hi & bye","buttons":["Reply","Archive"],"default-action":true}"#
            ])
    }
}

@Suite("Dispatcher: the bounds of what is kept, as the settings give them")
struct DispatcherKeptSettingsTests {
    @Test("keep-notifications = 0: nothing kept, closed as expired when its toast's time is up")
    func nothingKept() {
        var limits = Dispatcher.Limits()
        limits.kept = 0
        var v = VirtualService(limits: limits)
        let effects = v.keep(1)
        #expect(!effects.contains { if case .keep = $0 { true } else { false } })
        #expect(v.closed.map(\.0) == [1] && v.closed.first?.1 == .expired)
    }

    @Test("The settings read from a config file's general part and the command line")
    func settings() throws {
        var builder = ConfigurationBuilder()
        builder.apply(file: ConfigFile(parsing: "keep-notifications = 5\nkeep-notifications-for = 12h\n"), path: "c", preset: nil)
        #expect(builder.warnings.isEmpty)
        #expect(builder.configuration.keptNotifications == 5 && builder.configuration.keptNotificationAge == 43_200)
        let definition = try #require(OptionTable.named("keep-notifications-for"))
        #expect(definition.current?(builder.configuration) == "12h")
        try builder.apply(commandLine: [(try #require(OptionTable.named("keep-notifications")), "7")])
        #expect(builder.configuration.keptNotifications == 7)
    }
}

extension DispatcherKeptSettingsTests {
    @Test("The service's settings are read from the file's general part only, never from a preset's section")
    func onlyInTheGeneralPart() {
        var builder = ConfigurationBuilder()
        builder.apply(file: ConfigFile(parsing: "[volume]\nkeep-notifications = 5\n"), path: "c", preset: "volume")
        #expect(builder.configuration.keptNotifications == 100)
        #expect(builder.warnings.first?.contains("a setting of the notification service") == true, "\(builder.warnings)")
    }
}

@Suite("Dispatcher: a burst of one application's notifications is one toast")
struct DispatcherBurstTests {
    static func chat(_ id: UInt32, app: String = "Signal") -> Dispatcher.Notification {
        VirtualService.notification(id, timeout: -1, actions: ["reply", "Reply"], app: app)
    }

    /// The title the toast of `id` was handed with.
    static func title(_ effects: [Dispatcher.Effect], _ id: UInt32) -> String? {
        for case .hand(id, let arguments, _) in effects.reversed() {
            return arguments.firstIndex(of: "--title").map { arguments[$0 + 1] }
        }
        return nil
    }

    @Test("Twenty in a second while the first shows: one toast replaced in place, counting them; the others kept")
    func twentyAtOnce() {
        var v = VirtualService()
        v.send(.notify(Self.chat(1)))
        v.queued(1)
        let first = v.pid(of: 1)!
        let tag = v.dispatcher.entries[1]!.notification.toast.tag
        for id in 2...20 {
            v.send(.notify(Self.chat(UInt32(id))))
            if v.pid(of: UInt32(id)) != nil { v.queued(UInt32(id)) }
        }
        // The toast on screen stays a second (`burstPace`): the burst gathers in one waiting.
        #expect(v.dispatcher.line == [20] && v.handed == [1])
        v.advance(to: v.now + 1)
        // Then the newest replaces the toast on screen, by its tag: nothing queues behind it.
        #expect(v.dispatcher.line.isEmpty && v.handed == [1, 20])
        #expect(Self.title(v.effects, 20) == "Signal · 20 new")
        #expect(v.dispatcher.entries.count == 1 && v.dispatcher.entries[20]?.notification.toast.tag == tag)
        #expect(Set(v.dispatcher.kept.keys) == Set(1...19))
        #expect(!v.effects.contains(.dismiss(first)), "replaced in place, not dismissed")
        #expect(v.closed.isEmpty)
    }

    @Test("Twenty sent in one go, the first still joining the queue: two turns, the second replacing the first in place")
    func twentyInOneGo() {
        var v = VirtualService()
        for id in 1...20 { v.send(.notify(Self.chat(UInt32(id)))) }
        #expect(v.handed == [1] && v.dispatcher.line == [20], "the rest joined one waiting toast")
        let tag = v.dispatcher.entries[1]!.notification.toast.tag
        v.queued(1)
        #expect(v.handed == [1], "its burst's toast stays a second")
        v.advance(to: v.now + 0.99)
        #expect(v.handed == [1])
        v.advance(to: v.now + 0.01)
        #expect(v.handed == [1, 20])
        #expect(Self.title(v.effects, 20) == "Signal · 20 new")
        #expect(v.dispatcher.entries[20]?.notification.toast.tag == tag)
        #expect(Set(v.dispatcher.kept.keys) == Set(1...19))
        // The 18 that never showed are in the history, and the first (its toast's entry gives way
        // to the newest's, which has its tag).
        #expect(v.effects.filter { if case .record(let entry) = $0 { !entry.shown } else { false } }.count == 18)
        #expect(v.effects.filter { if case .record(let entry) = $0 { entry.shown } else { false } }.count == 1)
        v.queued(20)
        v.end(20)
        #expect(v.dispatcher.kept.count == 20 && v.closed.isEmpty)
    }

    @Test("One that waits behind another's toast: the newest takes its place in line; the one it replaced is in the history")
    func joinsAWaitingOne() {
        var v = VirtualService()
        v.send(.notify(Self.chat(1, app: "Mail")))
        v.queued(1)
        v.send(.notify(Self.chat(2, app: "Calendar")))  // joining the queue: the rest wait
        v.send(.notify(Self.chat(3)))
        v.send(.notify(Self.chat(4, app: "Chat")))
        let effects = v.send(.notify(Self.chat(5)))
        #expect(v.dispatcher.line == [5, 4], "5 took 3's place, ahead of 4")
        #expect(effects.contains { if case .record(let entry) = $0 { entry.text == "n3" && !entry.shown } else { false } })
        #expect(v.dispatcher.kept[3] != nil)
        v.queued(2)
        #expect(Self.title(v.effects, 5) == "Signal · 2 new")
    }

    @Test("Critical, stack-tagged and transient ones, and other applications' ones, each show as themselves")
    func alone() {
        var v = VirtualService()
        v.send(.notify(Self.chat(1)))
        v.queued(1)
        var critical = NotificationRequest()
        critical.appName = "Signal"
        critical.hints.urgency = 2
        v.send(.notify(Dispatcher.Notification(id: 2, toast: NotificationToast(id: 2, request: critical, icon: nil))))
        v.send(.notify(VirtualService.notification(3, tag: "volume", app: "Signal")))
        v.send(.notify(Self.chat(4, app: "Mail")))
        #expect(v.handed == [1, 2] && v.dispatcher.line == [3, 4])
        #expect(v.dispatcher.kept.isEmpty)
    }

    @Test("bursts = queued: a toast each, in turn")
    func queued() {
        var limits = Dispatcher.Limits()
        limits.bursts = .queued
        var v = VirtualService(limits: limits)
        v.send(.notify(Self.chat(1)))
        v.queued(1)
        v.send(.notify(Self.chat(2)))
        #expect(v.handed == [1, 2] && v.dispatcher.kept.isEmpty)
        #expect(Self.title(v.effects, 2) == nil, "its own summary, no count")
    }

    @Test("One the user or the application is closing is no burst to join")
    func notWhileClosing() {
        var v = VirtualService()
        v.send(.notify(Self.chat(1)))
        v.queued(1)
        v.send(.close(1))
        v.send(.notify(Self.chat(2)))
        #expect(v.handed == [1, 2] && v.dispatcher.kept.isEmpty)
        #expect(Self.title(v.effects, 2) == nil, "its own summary, no count")
    }

    @Test("The joined toast's command line: the count in the title, the newest summary as its message, what the store reads")
    func joinedCommandLine() {
        var request = NotificationRequest()
        (request.appName, request.summary, request.body) = ("Signal", "Ana", "see <b>you</b>")
        let toast = NotificationToast(id: 9, request: request, icon: nil).joining(count: 4, tag: "fdn-2")
        #expect(toast.tag == "fdn-2")
        #expect(Array(toast.arguments.suffix(6)) == ["--burst", "4", "--title", "Signal · 4 new", "--", "Ana\nsee <b>you</b>"])
        #expect(toast.arguments.filter { $0 == "--title" }.count == 1)
        let again = toast.joining(count: 5)
        #expect(again.arguments.filter { $0 == "--burst" }.count == 1 && again.arguments.contains("5"))
        #expect(KeptNotifications.isOurs(toast.arguments))
    }
}

extension DispatcherKeptSettingsTests {
    @Test("service-idle = never: the service stays on the bus with nothing to show, and wants no timer for it")
    func staysForTheSession() {
        var limits = Dispatcher.Limits()
        limits.idleTime = .infinity
        var v = VirtualService(limits: limits)
        #expect(v.dispatcher.deadline == nil)
        v.notify(1)
        v.queued(1)
        v.end(1)
        v.advance(to: 1e7)
        #expect(!v.effects.contains(.releaseName))
        #expect(v.dispatcher.deadline == nil)
    }
}

extension DispatcherKeptTests {
    @Test("A stack tag replaces the kept one it names: a volume key's notifications are one, on screen or kept")
    func aStackTagReplacesAKeptOne() {
        var v = VirtualService()
        v.send(.notify(VirtualService.notification(1, tag: "volume", timeout: -1)))
        v.queued(1)
        v.end(1)
        #expect(v.dispatcher.kept[1] != nil)
        let effects = v.send(.notify(VirtualService.notification(2, tag: "volume", timeout: -1)))
        #expect(effects.prefix(2) == [.forget(1), .closed(1, .undefined)])
        #expect(v.dispatcher.kept.isEmpty)
        v.queued(2)
        v.end(2)
        // Its own id's tag names no other.
        v.keep(3)
        v.keep(4)
        #expect(Set(v.dispatcher.kept.keys) == [2, 3, 4])
    }

    @Test("Shown again, a kept one shows as itself, not as the newest of its application's burst")
    func reshownAlone() {
        var v = VirtualService()
        v.send(.notify(VirtualService.notification(1, timeout: -1, app: "Signal")))
        v.queued(1)
        v.end(1)
        v.send(.notify(VirtualService.notification(2, timeout: 0, app: "Signal")))
        v.queued(2)
        v.user(1, .reshow)
        #expect(v.dispatcher.entries[1]?.notification.toast.group == nil)
        #expect(v.dispatcher.entries[2] != nil, "the one on screen stays")
    }
}

extension DispatcherTests {
    @Test("--dismiss-all: what waits is closed at once (2), what shows or joins is dismissed and closed by its end")
    func dismissAll() {
        var v = VirtualService()
        v.notify(1)
        v.queued(1)
        v.notify(2)
        v.notify(3)
        v.notify(4)
        let on = v.pid(of: 1)!
        let joining = v.pid(of: 2)!
        let effects = v.send(.dismissAll)
        #expect(v.dispatcher.line.isEmpty)
        #expect(effects.contains(.dismiss(on)) && effects.contains(.dismiss(joining)))
        #expect(v.closed.map(\.0) == [3, 4] && v.closed.allSatisfy { $0.1 == .dismissed })
        v.end(1, outcome: ["dismissed"])
        v.end(2, outcome: [], queued: false, status: 0)
        #expect(v.closed.map(\.0) == [3, 4, 1, 2] && v.closed.allSatisfy { $0.1 == .dismissed })
        #expect(v.handed == [1, 2], "nothing more shows")
    }
}
