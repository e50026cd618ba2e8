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

    /// Notification `id`, tagged `tag` (its own id's tag unless said).
    static func notification(_ id: UInt32, tag: String? = nil, bytes: Int? = nil) -> Dispatcher.Notification {
        var request = NotificationRequest()
        request.summary = "n\(id)"
        if let tag { request.hints.stackTag = tag }
        return Dispatcher.Notification(id: id, toast: NotificationToast(id: id, request: request, icon: nil), bytes: bytes)
    }

    @discardableResult
    mutating func notify(_ id: UInt32, tag: String? = nil) -> [Dispatcher.Effect] { send(.notify(Self.notification(id, tag: tag))) }

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
        #expect(effects.prefix(2) == [.invoke(4, action: "reply", clickTime: 77), .closed(4, .dismissed)])
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
