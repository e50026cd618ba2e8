@testable import XToastCore

/// The session's effects, carried out as `ToastSession` carries them out (see `QueueWorld`).
extension QueueWorld {
    /// Carries out the session's next effect, and hands its answers back through the driver.
    mutating func carryOutNext(_ index: Int) throws {
        guard let effect = processes[index].driver.next(at: now) else { return }
        let answers = try carryOut(effect, for: index)
        processes[index].driver.answer(answers, at: now)
    }

    /// An effect, carried out as `ToastSession.carryOut` does it, against this server: the
    /// queue's through the member, in a conversation whose end answers it; the questions with
    /// the scenario's facts.
    mutating func carryOut(_ effect: Session.Effect, for index: Int) throws -> [Session.Event] {
        switch effect {
        case .join: begin(index, .effect, processes[index].member.join())
        case .rejoin:
            processes[index].rejoined = true
            begin(index, .effect, processes[index].member.rejoin())
        case .lookAtTurn: processes[index].looksAtTurn = true
        case .watch(let entry): begin(index, .watch, processes[index].member.watch(entry, now: now))
        case .standAsideInPlace:
            processes[index].stoodAside = true
            begin(index, .effect, QueueMember.Step(processes[index].member.standAsideInPlace(), .done))
        case .summarise(let others):
            processes[index].summarised += others
            begin(index, .effect, processes[index].member.summarise(others))
        case .lookAgain(let until): armPauseEnd(index, at: until)
        case .standAside(let until):
            if processes[index].urgent { throw failure("urgent \(index) stood aside") }
            begin(index, .effect, QueueMember.Step(processes[index].member.standAside(), .done))
            armPauseEnd(index, at: until)
        case .finish:
            // Its windows go, then it leaves the queue (`ToastSession.run`).
            processes[index].mapped = false
            if processes[index].state != .killed { processes[index].state = .leaving }
            begin(index, .leave, processes[index].member.leave())
        case .lookAtScreen:
            return [.screen(Session.Screen(replacing: processes[index].member.replacedShown != nil))]
        case .show(_, _, _, let morph):
            if !morph { try show(index) }
            return [.shown]
        case .present:
            if processes[index].mapped { try checkNotOverLock(index, "drawn") }
        case .announce(let progress):
            let shown = QueueMember.Shown(box: Rect(x: 10, y: 10, width: 100, height: 40), progress: progress)
            begin(index, .effect, processes[index].member.announceShown(shown))
        case .lookAtFullscreen: return [.fullscreen(covered: fullscreen)]
        case .watchFullscreen:
            processes[index].watchesFullscreen = true
            // Watched from this read on: should it have cleared in between, look again.
            if !fullscreen { return [.fullscreenChanged] }
        case .lookAtLock:
            processes[index].knowsLock = locked
            return [.lock(locked ? .locked : .clear)]
        case .watchLock: processes[index].watchesLock = true
        case .withdraw: processes[index].mapped = false
        case .restore:
            try checkNotOverLock(index, "restored")
            processes[index].mapped = true
        default: break
        }
        return []
    }

    /// `Wakeups.armPauseEnd`: `.pauseChanged` at that wall-clock second (at once when past);
    /// nil disarms it.
    mutating func armPauseEnd(_ index: Int, at until: Int?) {
        processes[index].timer = nil
        guard let until else { return }
        guard until > clock else { return processes[index].inbox.append(.pauseChanged) }
        processes[index].timer = until
    }

    /// The windows go up. Never two at once, except a toast already told to go: one we
    /// replace, one that a toast with its tag replaced, or this one, told while it looked (it
    /// reads the command next, a toast that flashed as its update came).
    mutating func show(_ index: Int) throws {
        note("  \(index) shows")
        try checkNotOverLock(index, "shown")
        if processes[index].shown { throw failure("\(index) shown twice") }
        let retiring = Set(processes[index].member.replaces)
        for other in processes where other.state == .showing && !retiring.contains(other.ticket) && other.replacedBy == nil {
            guard processes[index].replacedBy == nil else { continue }
            throw failure("\(other.index) and \(index) show at once; queue \(queue)")
        }
        processes[index].state = .showing
        processes[index].shown = true
        processes[index].mapped = true
        processes[index].hearsRoot = true
        if processes[index].tag == nil && !processes[index].urgent { showOrder.append(index) }
    }

    /// Nothing goes on screen over a lock the toast has seen (one that came after its last look
    /// it learns of at its first frame, and withdraws).
    func checkNotOverLock(_ index: Int, _ what: String) throws {
        guard locked && processes[index].knowsLock else { return }
        throw failure("\(index) \(what) over the lock it saw")
    }
}
