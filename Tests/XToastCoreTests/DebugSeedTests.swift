import Testing
@testable import XToastCore
import Glibc

@Suite struct DebugSeed {
    @Test func seed() throws {
        guard let text = getenv("XTOAST_SEED"), let seed = UInt64(String(cString: text)) else { return }
        for round in 0..<60 {
            var world = QueueWorld(seed: seed * 1000 + UInt64(round))
            world.keepAll = true
            do { try world.run(.init(processes: 10, pauses: true)) } catch {
                print("ROUND \(round)")
                print(world.trace.joined(separator: "\n"))
                throw error
            }
        }
    }
}
