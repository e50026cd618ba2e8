/// What the session hears and what it asks for: its whole interface with the X side.
extension Session {
    /// Where a terminating signal came from. The terminal sends Ctrl-C to the whole foreground
    /// process group, so a `--run` command has it already; `kill` reaches us alone.
    public enum SignalSource: Equatable, Sendable { case process, terminal }

    /// The signals a toast answers. SIGCHLD is not one: the X side reaps the command and says
    /// `commandEnded`.
    public enum Signal: Equatable, Sendable {
        /// SIGUSR1: close the toast, as `--dismiss` does.
        case dismiss
        /// SIGTERM, SIGINT, SIGHUP, SIGQUIT: end, with 128+N as the exit status.
        case terminate(Int32)
    }

    public enum Event: Equatable, Sendable {
        case start
        /// Time has passed: do what is due at `now` (the grace's end, a frame, the end).
        case tick
        /// A scheduled toast's time has come.
        case due
        /// The local time zone changed (an `--at` in local time means another instant now).
        case zoneChanged
        case signal(Signal, from: SignalSource)
        /// The `--run` command ended with this status (128+N: killed by signal N).
        case commandEnded(status: Int32)
        /// Lines read from standard input (`--stdin`), oldest first.
        case lines([String])
        /// The ticket we waited for ended or changed: the turn may have come.
        case queueChanged
        /// What the queue says (see `QueueProtocol.turn`), after a `lookAtTurn`.
        case turn(QueueProtocol.Turn)
        /// The pause (`xtoast --pause`) changed, or its end came: a toast standing aside looks
        /// again.
        case pauseChanged
        /// A stacked toast placed before ours went or changed size.
        case stackChanged
        /// A stacked toast found no room on its monitor past the ones before it (after a
        /// `show`, instead of `shown`): it waits for one of them to go.
        case noRoom
        /// After a `restack`: the windows slide to their new place until then (nil: nothing moves).
        case sliding(until: Double?)
        /// A command from another xtoast (`--dismiss`, a toast with our tag).
        case remote(RemoteCommand)
        /// A click on the toast (`.clicked`) or on one of its buttons.
        case click(Outcome)
        /// A click on a link in its text: the link's URL (`LinkedMarkup`).
        case link(String)
        /// Another window came over ours.
        case covered
        /// The server lost our pixels: draw again.
        case exposed
        /// What the screen is like, after a `lookAtScreen`.
        case screen(Screen)
        /// The windows asked for by `show` are up.
        case shown
        /// The seconds between frames on the toast's monitor, once known.
        case frameInterval(Double)
        /// Whether a compositor runs, when it may have started or stopped.
        case compositorChanged(composited: Bool)
        /// The pointer came onto the toast or left it: its time stands still while it is there.
        case hover(HoverChange)
        /// Click-through: the pointer moves (true), so where it is must be looked at again every
        /// `pointerLookInterval` until it rests (false).
        case pointerMoves(Bool)
        /// Whether every monitor the toast goes on shows a fullscreen window, after a
        /// `lookAtFullscreen`.
        case fullscreen(covered: Bool)
        /// The windows on top, or their states, changed (after a `watchFullscreen`).
        case fullscreenChanged
        /// Whether a locker, a blanker or the screen saver covers the toast's monitors, after a
        /// `lookAtLock`.
        case lock(LockState)
        /// The lock may have ended (after a `watchLock`).
        case lockChanged
        /// Seconds since the user last touched keyboard or pointer, after a `lookAtIdle` (nil:
        /// the server cannot tell). While the user is away, less than at the last look means
        /// they are back.
        case idle(seconds: Double?)
        /// After a `watchReturn`: the server has no idle alarm; the idle time is looked at every
        /// `idleLookInterval` instead.
        case noReturnAlarm
        /// The user is back (the idle alarm after a `watchReturn` fired).
        case userReturned
        /// A key typed into the open reply entry (`Reply.swift`).
        case key(ReplyKey)
        /// After a `takeKeyboard`: whether the keyboard could be had (another client, a window
        /// manager's binding, may hold it).
        case keyboard(taken: Bool)
    }

    public enum Effect: Equatable, Sendable {
        /// Start the delivery clock of `--in`/`--at` (and watch the time zone for `--at`).
        case schedule(Delivery)
        /// Work out the `--at` instant again in the new time zone.
        case reschedule
        /// Be listed in `_XTOAST_SCHEDULED`, where `--cancel-scheduled` finds us; and leave it.
        case joinSchedule
        case leaveSchedule
        /// Join the queue (or, with `--stack`, the stack).
        case join
        /// Our place is on the server (where `--detach` lets its caller go).
        case queued
        /// Read the queue and answer with `.turn`.
        case lookAtTurn
        /// Join the queue again: we were missing from it.
        case rejoin
        /// Stand aside in our place (a fullscreen window, a locked screen): the toasts behind pass us.
        case standAsideInPlace
        /// Tell these tickets, which came back from quiet behind ours, that ours shows their
        /// summary (`QueueMember.summarise`): each ends `summarised`.
        case summarise([UInt])
        /// Wait for this ticket: its end or change comes as `.queueChanged`.
        case watch(UInt)
        /// Say `.pauseChanged` at this wall-clock second, whatever happens meanwhile.
        case lookAgain(at: Int)
        /// Stand aside for a pause: mark the ticket as standing aside, and say `.pauseChanged`
        /// when the pause changes or its end comes (`until`, a wall-clock second; nil: until
        /// `--resume`).
        case standAside(until: Int?)
        /// Find out what the screen is like (a compositor, "reduce motion", a toast with our tag
        /// to take over from): answer with `.screen`.
        case lookAtScreen
        /// Put up windows for this content, on this timeline, blended or not, and answer with
        /// `.shown`; `morph`: grow out of the toast on screen (an update), which stays until the
        /// new one is drawn.
        case show(ToastContent, Timeline, composited: Bool, morph: Bool)
        /// Draw the windows in this state; `turn` is the spinner's, in turns.
        case present(Appearance, turn: Double)
        /// Draw the windows blended by a compositor (true), or shaped and opaque (false).
        case blend(Bool)
        /// Raise the windows over the one that covered them.
        case raise
        /// Work out the toast's new place in the stack and slide there: answer with `.sliding`.
        case restack
        /// Move the sliding windows to where their slides are now (and publish a box that
        /// arrived, once announced).
        case slide
        /// The first frame is out: publish where the toast is (and its progress value), tell
        /// the toasts we replace to go, drop the one we morphed from.
        case announce(progress: Double?)
        /// Tell a screen reader, if one runs, what this content says.
        case speak(ToastContent)
        /// Find out whether the toast's monitors are covered by a fullscreen window: answer with
        /// `.fullscreen(covered:)`.
        case lookAtFullscreen
        /// Say `.fullscreenChanged` when that may have changed.
        case watchFullscreen
        /// Find out whether the screen is locked or blanked on the toast's monitors: answer with
        /// `.lock`.
        case lookAtLock
        /// Say `.lockChanged` when that may have changed.
        case watchLock
        /// Unmap the windows on screen: the screen is locked or blank, and nothing of the toast
        /// may be over it, whatever the stacking order.
        case withdraw
        /// Map them again, on top: the screen is unlocked.
        case restore
        /// Find out how long the user has been idle: answer with `.idle(seconds:)`.
        case lookAtIdle
        /// Say `.userReturned` at the user's next input, or `.noReturnAlarm` when the server
        /// cannot.
        case watchReturn
        /// Look where the pointer is (click-through): answer with `.hover` if it came or went,
        /// and with `.pointerMoves`.
        case lookAtPointer
        /// Pass a signal on to the `--run` command.
        case forward(Int32)
        /// Start the desktop's opener on this URL (`Link.command(opening:)`), on its own: nothing
        /// waits for it, and the toast goes on as it was.
        case open(String)
        /// Take the keyboard for the reply entry (retrying a while if another client holds it):
        /// answer with `.keyboard(taken:)`; keys come as `.key`.
        case takeKeyboard
        /// Give the keyboard back.
        case releaseKeyboard
        /// Draw the button row as the reply entry with this draft (nil: as buttons again).
        case editReply(ReplyDraft?)
        /// Close the windows now.
        case hide
        /// Leave the queue, the stack and the schedule, so that the next toast can show.
        case leave
        /// The session is over.
        case finish(Outcome)
    }

    /// What a signal does, by phase: the one table behind every signal (docs/design.md, "Signals").
    public enum SignalResponse: Equatable, Sendable {
        /// End the toast with this outcome (with a `--run` command still running: close it and
        /// wait for the command).
        case end(Outcome)
        /// Send it on to the `--run` command, and end as it does.
        case forwardToCommand
        /// The `--run` command has it already (it came from the terminal): end as it does.
        case awaitCommand
        /// Nothing to do: the toast is closed already.
        case ignore
    }

    public static func response(to signal: Signal, from source: SignalSource, in phase: Phase, commandRunning: Bool)
        -> SignalResponse
    {
        switch (signal, phase) {
        case (_, .finished), (.dismiss, .closedEarly):
            return .ignore
        case (.dismiss, _):
            // In every phase, the grace included: no toast for this run (the command goes on,
            // and its status is still ours).
            return .end(.dismissed)
        case (.terminate(let number), _):
            guard commandRunning else { return .end(.signalled(number)) }
            return source == .terminal ? .awaitCommand : .forwardToCommand
        }
    }

}
