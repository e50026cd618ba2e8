import Testing

@testable import XToastCore

/// Floods of notifications against the shipped dispatcher, through the service's driver, with
/// a fake world of processes acting in a seeded random order: notifications that come, are
/// replaced and closed; processes that join, end, fail before joining, or never join; spares
/// that die; time that passes; the user's presses, dismissals and reshows; bursts of one
/// application; notifications kept after their toasts. The promises, checked after every step
/// and at the end: never more processes than the bound, never two joining at once, hand-outs in
/// the order the notifications came, never more kept than the bound, none both kept and alive,
/// and every notification closed exactly once, with its signal, or kept: none lost.
@Suite("Dispatcher: floods in random orders")
struct DispatcherSimulationTests {
    struct World {
        var service: VirtualService
        var random: SplitMix64
        /// Each id alive (from its first Notify to its NotificationClosed) and its line key: the
        /// order it came in (a replacement in line keeps the key of what it replaced).
        var living: [UInt32: Int] = [:]
        var next = 0
        var handedKeys: [Int] = []
        var closedCount = 0
        var step = 0

        init(seed: UInt64, limits: Dispatcher.Limits) {
            service = VirtualService(limits: limits)
            random = SplitMix64(state: seed)
        }

        /// One random act of the world.
        mutating func act() throws {
            step += 1
            let before = service.effects.count
            switch random.below(14) {
            case 0...3:
                // A notification, sometimes replacing one alive, sometimes with a shared tag, of
                // one of a few applications (a burst), timed by the server (kept after its toast)
                // or by itself.
                let id = UInt32(1 + random.below(40))
                let tag = random.below(5) == 0 ? "volume" : nil
                if living[id] == nil || service.dispatcher.place(of: id) != .waiting {
                    next += 1
                    living[id] = next
                }
                let line = service.dispatcher.line
                let app = random.pick(["", "Signal", "Mail"])
                let timeout: Int32 = random.below(2) == 0 ? -1 : 5000
                let notification = VirtualService.notification(id, tag: tag, timeout: timeout, actions: ["default", ""], app: app)
                let effects = service.send(.notify(notification))
                // Joined a burst that waited (recorded unshown): it took that one's place in line
                // (handed out at once if it was first), and its key.
                if effects.contains(where: { if case .record(let entry) = $0 { !entry.shown } else { false } }) {
                    let index = service.dispatcher.line.firstIndex(of: id) ?? 0
                    if line.indices.contains(index), let key = living[line[index]] { living[id] = key }
                }
            case 4:
                service.send(.close(UInt32(1 + random.below(40))))
            case 12:
                // The user: a press (the default action), a dismissal, or a reshow.
                let call = random.pick([Dispatcher.UserCall.press(label: nil, clickTime: nil), .dismiss, .reshow])
                let id = UInt32(1 + random.below(40))
                let wasKept = service.dispatcher.kept[id] != nil
                service.send(.user(id, call))
                if wasKept, call == .reshow {
                    next += 1
                    living[id] = next
                }
            case 5...6:
                // A process with work joins.
                let joining = service.alive.filter { $0.value != nil }.map(\.key).sorted()
                guard !joining.isEmpty else { break }
                service.send(.queued(random.pick(joining)))
            case 7...8:
                // A process with work ends: as a toast does, or before it could say anything.
                let working = service.alive.filter { $0.value != nil }.map(\.key).sorted()
                guard !working.isEmpty else { break }
                let pid = random.pick(working)
                service.alive[pid] = nil
                let silent = random.below(6) == 0
                let report =
                    silent ? nil : NotificationChild.Report(queued: true, outcome: [random.pick(["expired", "clicked", "dismissed"])])
                service.send(.ended(pid, report: report, status: silent ? 1 : 0))
            case 9:
                // The spare dies before it has work.
                let spares = service.alive.filter { $0.value == nil }.map(\.key).sorted()
                guard let pid = spares.first else { break }
                service.alive[pid] = nil
                service.send(.ended(pid, report: nil, status: 1))
            default:
                service.advance(to: service.now + Double(random.below(300)) / 100)
            }
            try check(service.effects[before...])
        }

        /// The promises, for the effects of one step.
        mutating func check(_ effects: ArraySlice<Dispatcher.Effect>) throws {
            for effect in effects {
                switch effect {
                case .hand(let id, _, _):
                    guard let key = living[id] else {
                        throw SimulationFailure(description: "step \(step): handed \(id), which is not alive")
                    }
                    // In the order they came; a second try (a retry) goes again first.
                    if let last = handedKeys.last, key < last, !handedKeys.contains(key) {
                        throw SimulationFailure(description: "step \(step): handed \(id) (key \(key)) after key \(last)")
                    }
                    handedKeys.append(key)
                case .closed(let id, _):
                    guard living.removeValue(forKey: id) != nil else {
                        throw SimulationFailure(description: "step \(step): closed \(id) twice, or one never notified")
                    }
                    closedCount += 1
                default: break
                }
            }
            let kept = service.dispatcher.kept
            if kept.count > service.dispatcher.limits.kept {
                throw SimulationFailure(description: "step \(step): \(kept.count) kept, over the bound")
            }
            if let both = kept.keys.first(where: { service.dispatcher.place(of: $0) != nil }) {
                throw SimulationFailure(description: "step \(step): \(both) is kept and alive")
            }
            if let lost = kept.keys.first(where: { living[$0] == nil }) {
                throw SimulationFailure(description: "step \(step): \(lost) is kept, but was closed or never notified")
            }
            let working = service.alive.values.filter { $0 != nil }.count
            if working > service.dispatcher.limits.running {
                throw SimulationFailure(description: "step \(step): \(working) processes with work")
            }
            let joining = service.dispatcher.entries.values.filter {
                if case .joining = $0.place { true } else if case .handing = $0.place { true } else { false }
            }.count
            if joining > 1 { throw SimulationFailure(description: "step \(step): \(joining) joining at once") }
        }

        /// Every process joins and ends, time passes: nothing may be left.
        mutating func drain() throws {
            var rounds = 0
            while !service.dispatcher.isEmpty {
                rounds += 1
                if rounds > 10_000 { throw SimulationFailure(description: "never drained: \(service.dispatcher.entries.count) left") }
                let before = service.effects.count
                if let (pid, _) = service.alive.first(where: { $0.value != nil }) {
                    service.send(.queued(pid))
                    service.alive[pid] = nil
                    service.send(.ended(pid, report: NotificationChild.Report(queued: true, outcome: ["expired"]), status: 0))
                } else {
                    service.advance(to: service.now + 6)
                }
                try check(service.effects[before...])
            }
            let lost = Set(living.keys).subtracting(service.dispatcher.kept.keys)
            if !lost.isEmpty { throw SimulationFailure(description: "never closed: \(lost.sorted())") }
        }
    }

    @Test("2,000 seeded floods of 300 steps: bounds kept, order kept, each notification closed once", arguments: 0..<20)
    func floods(batch: Int) throws {
        for seed in 0..<100 {
            var limits = Dispatcher.Limits()
            limits.running = 4 + (seed % 5)
            limits.waiting = 6 + (seed % 7)
            limits.kept = 5 + (seed % 11)
            var world = World(seed: UInt64(batch * 100 + seed), limits: limits)
            do {
                for _ in 0..<300 { try world.act() }
                try world.drain()
            } catch {
                throw SimulationFailure(description: "seed \(batch * 100 + seed): \(error)")
            }
        }
    }
}
