import Testing

@testable import XToastCore

@Suite("Outcome")
struct OutcomeTests {
    @Test(
        "The word --print-outcome prints; with --action a click is `action` and a terminating signal is `terminated`",
        arguments: [
            (Outcome.clicked, false, "clicked"), (.clicked, true, "action"),
            (.expired, false, "expired"), (.expired, true, "expired"),
            (.dismissed, false, "dismissed"), (.dismissed, true, "dismissed"),
            (.replaced, false, "replaced"), (.replaced, true, "replaced"),
            (.signalled(15), false, "terminated"), (.signalled(15), true, "terminated"),
            (.signalled(2), false, "terminated"), (.signalled(1), true, "terminated"),
        ])
    func word(outcome: Outcome, action: Bool, expected: String) {
        #expect(outcome.word(action: action) == expected)
    }

    @Test(
        "Exit status: 0 for every normal ending; with --action only a click is 0 (`xtoast --action … && install`)",
        arguments: [
            (Outcome.clicked, false, 0), (.expired, false, 0), (.dismissed, false, 0), (.replaced, false, 0),
            (.clicked, true, 0), (.expired, true, 2), (.dismissed, true, 2), (.replaced, true, 2),
        ] as [(Outcome, Bool, Int32)])
    func exitStatus(outcome: Outcome, action: Bool, expected: Int32) {
        #expect(outcome.exitStatus(action: action) == expected)
    }

    @Test(
        "A terminating signal N exits with 128 + N, with or without --action, as a shell expects",
        arguments: [(15, 143), (2, 130), (1, 129), (9, 137)] as [(Int32, Int32)])
    func signalStatus(signal: Int32, expected: Int32) {
        #expect(Outcome.signalled(signal).exitStatus(action: false) == expected)
        #expect(Outcome.signalled(signal).exitStatus(action: true) == expected)
    }
}
