/// SplitMix64: a tiny seeded generator, so every run fuzzes the same inputs and a failure can be
/// replayed. `below(_:)` is written out here rather than taken from `Int.random(in:using:)`,
/// whose algorithm the standard library does not promise to keep.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0); the bias of the multiply-shift is far below what matters here.
    mutating func below(_ bound: Int) -> Int { Int(next().multipliedFullWidth(by: UInt64(bound)).high) }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}
