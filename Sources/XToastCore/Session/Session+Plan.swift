/// What a session is asked to do, from the command line and the style.
extension Session {
    /// What the command line asked for.
    public struct Plan: Equatable, Sendable {
        public var content: ToastContent
        public var duration: DisplayDuration
        public var delivery: Delivery
        /// Shown at once, beside the others (`--stack`), instead of waiting for a turn.
        public var stack: Bool
        /// `--run`: the command runs already; the toast follows it.
        public var command: CommandPlan?
        /// Seconds between spinner frames, and seconds for one turn.
        public var spinnerInterval: Double
        public var spinnerPeriod: Double
        /// Tell a screen reader what the toast says, once, as it first appears (`announce`).
        public var speaks: Bool
        /// Seconds a toast holds at least once the pointer leaves it or the user is back
        /// (`Style.hoverMinimumHold`).
        public var hoverMinimumHold: Double
        /// What it does while its monitor shows a fullscreen window (`--fullscreen`).
        public var fullscreen: FullscreenPolicy
        /// Seconds without input after which the user counts as away (`--idle`); 0: never.
        public var idleThreshold: Double
        /// How the toast comes and goes (`Style.motion`).
        public var motion: Motion
        /// How it takes over from a toast with its tag, or from its own content for an update:
        /// the box moves from the old one's place (`Style.replacementMotion`).
        public var replacement: Motion

        public init(
            content: ToastContent, duration: DisplayDuration, delivery: Delivery = .now, stack: Bool = false,
            command: CommandPlan? = nil, spinnerInterval: Double = 1 / Style.toast.spinnerFrameRate,
            spinnerPeriod: Double = Style.toast.spinnerPeriod, speaks: Bool = false,
            hoverMinimumHold: Double = Style.toast.hoverMinimumHold, fullscreen: FullscreenPolicy = .show, idleThreshold: Double = 0,
            motion: Motion = Style.toast.motion, replacement: Motion = Style.toast.replacementMotion
        ) {
            self.motion = motion
            self.replacement = replacement
            self.fullscreen = fullscreen
            self.idleThreshold = idleThreshold
            self.speaks = speaks
            self.hoverMinimumHold = hoverMinimumHold
            self.content = content
            self.duration = duration
            self.delivery = delivery
            self.stack = stack
            self.command = command
            self.spinnerInterval = spinnerInterval
            self.spinnerPeriod = spinnerPeriod
        }
    }

    /// The command of `--run`.
    public struct CommandPlan: Equatable, Sendable {
        /// The command line, for the toast.
        public var commandLine: String
        /// How long it may run before a toast appears at all.
        public var grace: Double
        /// How long its result stays.
        public var resultHold: Double

        public init(commandLine: String, grace: Double, resultHold: Double) {
            self.commandLine = commandLine
            self.grace = grace
            self.resultHold = resultHold
        }
    }

}

extension Style {
    /// How a toast takes over from one with its tag (`--tag`): already fully shown, its box moves
    /// from the old one's place over `replaceDuration`, then it leaves as its motion does.
    public var replacementMotion: Motion {
        .replacing(over: replaceDuration, curve: transitionEasing, exit: motion.exit)
    }
}
