/// How a toast ended.
public enum Outcome: Equatable, Sendable {
    case expired, clicked, dismissed, replaced
    /// Not shown: a fullscreen window covered its monitor and its policy is `drop`.
    case dropped
    /// A click on button N (from 0, in `--button` order).
    case button(Int)
    /// A reply typed into the entry of `--reply` and sent (one line, trimmed, never empty).
    case replied(String)
    /// Ended by a terminating signal, which the command passes on in its exit status.
    case signalled(Int32)
    /// Waited out quiet and ended as one line of a summary (`AwaySummary`), kept unseen in the
    /// history and the centre: told by the toast that showed it, or that toast itself.
    /// `opensCenter`: it showed the summary, and a click on it asked for the centre.
    case summarised(opensCenter: Bool)

    /// The word `--print-outcome` prints; with `--action` a click is `action`. A terminating
    /// signal is `terminated` (SIGUSR1, a dismissal by signal, is `dismissed`).
    public func word(action: Bool) -> String {
        switch self {
        case .expired: "expired"
        case .clicked: action ? "action" : "clicked"
        case .dismissed: "dismissed"
        case .signalled: "terminated"
        case .replaced: "replaced"
        case .dropped: "dropped"
        case .button: "button"
        case .replied: "replied"
        case .summarised: "summarised"
        }
    }

    /// The exit status: 0 for every normal ending; with `--action`, 0 only when clicked and 2
    /// otherwise (so `xtoast --action "Install?" && install` works); 128+N for signal N.
    public func exitStatus(action: Bool) -> Int32 {
        switch self {
        case .signalled(let number): 128 + number
        case .clicked, .button, .replied: 0
        case .expired, .dismissed, .replaced, .dropped, .summarised: action ? 2 : 0
        }
    }
}
