import CX11
import Glibc
import XToastCore
import XToastSystem

/// The session's effects, carried out: the queue's, the screen's, and the questions, whose
/// answers go back to the session as the driver (`SessionDriver`) says.
extension ToastSession {
    /// Carries out `effect`; the events it answers with, in order.
    func carryOut(_ effect: Session.Effect) throws(X11Error) -> [Session.Event] {
        switch effect {
        case .schedule, .reschedule, .joinSchedule, .leaveSchedule, .join, .queued, .lookAtTurn, .rejoin, .watch,
            .standAsideInPlace, .summarise, .lookAgain,
            .standAside, .leave:
            return try carryOutInQueue(effect)
        case .lookAtScreen, .show, .present, .blend, .raise, .restack, .slide, .announce, .hide:
            return try carryOutOnScreen(effect)
        case .takeKeyboard, .releaseKeyboard, .editReply:
            return carryOutReply(effect)
        case .lookAtLock, .watchLock, .withdraw, .restore:
            return try carryOutLock(effect)
        case .lookAtFullscreen, .watchFullscreen, .lookAtIdle, .watchReturn, .lookAtPointer, .speak, .forward, .open, .finish:
            return try carryOutLook(effect)
        }
    }

    /// The schedule, the queue, the stack and the pause.
    private func carryOutInQueue(_ effect: Session.Effect) throws(X11Error) -> [Session.Event] {
        switch effect {
        case .schedule(let delivery):
            do throws(SystemFailure) {
                try wakeups.schedule(delivery)
            } catch {
                throw .system(error.description)
            }
            if request.rescheduleAfterZoneChange != nil { wakeups.watchTimeZone() }
        case .reschedule:
            // "09:00" now means 09:00 in the new zone.
            if let instant = request.rescheduleAfterZoneChange?() { try? wakeups.schedule(.at(instant)) }
        case .joinSchedule: queue.joinSchedule()
        case .leaveSchedule: queue.leaveSchedule()
        case .join:
            if request.stack { queue.joinStack() } else { queue.register() }
            XFlush(display.pointer)
        case .queued: tell(queued)
        case .lookAtTurn: pending.insert(.lookAtTurn)
        case .rejoin: queue.rejoin()
        case .watch(let ticket):
            // Gone already: the machine looked again.
            if let turn = queue.watch(Window(ticket)) { return commandsQueued() + [.turn(turn)] }
        case .standAsideInPlace: queue.standAsideInPlace()
        case .summarise(let others):
            queue.summarise(others)
            let content = session.content
            queue.say(Listing.Said(title: content.title, message: content.message, markup: content.markup))
        case .lookAgain(let until): wakeups.armPauseEnd(at: Double(until))
        case .standAside(let until):
            queue.standAside()
            wakeups.armPauseEnd(at: until.map(Double.init))
        case .leave: queue.leave()
        default: break
        }
        return []
    }

    /// The windows.
    private func carryOutOnScreen(_ effect: Session.Effect) throws(X11Error) -> [Session.Event] {
        switch effect {
        case .lookAtScreen:
            return [.screen(try lookAtScreen())]
        case .show(let content, let timeline, let composited, let morph):
            // What is on screen stays until the newest is drawn over it: in a burst of updates
            // the one not drawn yet simply goes.
            let onScreen = morph ? retiring ?? showing : nil
            if morph { retiring = onScreen }
            guard
                let shown = try show(
                    content, on: timeline, composited: composited, morphingFrom: onScreen?.windows.first?.currentBox,
                    progress: onScreen?.windows.first?.progress)
            else { return [.noRoom] }
            showing = shown
            guard let draft = session.showing?.reply else { return [.shown] }
            // An update while the entry is open: the draft and the keyboard go to the new windows.
            return [.shown] + carryOutReply(.editReply(draft)) + carryOutReply(.takeKeyboard)
        case .present(let appearance, let turn): showing?.present(appearance, turn: turn)
        case .blend(let composited): showing?.blend(composited)
        case .raise: showing?.raise()
        case .restack: pending.insert(.restack)
        case .slide: showing?.slide(now: Clock.monotonic()) { box in announceMove(of: box) }
        case .announce(let progress):
            guard let showing else { break }
            let setUp = showing.isSetUp ? [] : try finishSetUp(showing)
            queue.announceShown(at: showing.windows[0].currentBox, progress: progress)
            if shownAt == nil {
                shownAt = Clock.wall()
                playSound()
            }
            // Drawn over the old one: now the old one can go.
            retiring = nil
            return setUp
        case .hide:
            showing = nil
            retiring = nil
        default: break
        }
        return []
    }

    /// The reply entry: the keyboard, and the draft drawn in the button row.
    private func carryOutReply(_ effect: Session.Effect) -> [Session.Event] {
        switch effect {
        case .takeKeyboard:
            guard let window = showing?.windows.first?.window else { return [.keyboard(taken: false)] }
            replyKeyboard?.release()
            replyKeyboard = ReplyKeyboard(display: display, window: window)
            if replyKeyboard == nil { warn("cannot take the keyboard for the reply: another program holds it") }
            return [.keyboard(taken: replyKeyboard != nil)]
        case .releaseKeyboard:
            replyKeyboard?.release()
            replyKeyboard = nil
        case .editReply(let draft):
            showing?.editReply(draft, placeholder: session.content.reply?.placeholder ?? ReplyField.defaultPlaceholder)
        default: break
        }
        return []
    }

    /// The questions to the server, and what goes elsewhere (the screen reader, the command).
    private func carryOutLook(_ effect: Session.Effect) throws(X11Error) -> [Session.Event] {
        switch effect {
        case .lookAtFullscreen:
            return [.fullscreen(covered: try isCovered())]
        case .watchFullscreen:
            watches.insert(.fullscreen)
            // Watched from this read on: should it have cleared in between, look again.
            if try !isCovered() { return [.fullscreenChanged] }
        case .lookAtIdle:
            return [.idle(seconds: idleWatch.idleSeconds())]
        case .watchReturn:
            if !idleWatch.armReturn() { return [.noReturnAlarm] }
        case .lookAtPointer:
            return (pointer.poll().map { [Session.Event.hover($0)] } ?? []) + [.pointerMoves(pointer.isFollowing)]
        case .speak(let content):
            // After the first frame, so that a toast's first paint never waits for it.
            ScreenReader.announceIfRunning(text: Announcement.text(for: content), display: display)
        case .forward(let number):
            if let command = request.command { kill(command.pid, number) }
        case .open(let url):
            guard let command = Link.command(opening: url) else { break }
            do throws(Errno) {
                try ChildProcess.spawnDetached(arguments: command)
            } catch {
                warn("cannot open a link with \(command[0]): \(error)")
            }
        default: break
        }
        return []
    }

    /// Whether every monitor the toast goes on shows a fullscreen window on top. Once watched,
    /// each read selects the events of the windows it read.
    private func isCovered() throws(X11Error) -> Bool {
        let targets: [Monitor]
        if let fresh = view.current { targets = fresh.targets } else { targets = try Self.monitors(for: request.monitor, on: display).0 }
        let mask = request.stack ? PropertyChangeMask : NoEventMask
        return !fullscreenWatch.covered(
            targets.map(\.rect), watching: watches.contains(.fullscreen) ? mask : nil, asked: view.current?.fullscreen
        )
        .contains(false)
    }

    /// Calls `queued` (`--detach`) once our place is on the server: that takes a round trip,
    /// which nobody else waits for.
    private func tell(_ queued: (() -> Void)?) {
        XFlush(display.pointer)
        guard let queued else { return }
        XSync(display.pointer, 0)
        queued()
    }
}

extension ToastSession {
    /// Plays the toast's sound, once, as its first frame is out: not while toasts are paused
    /// (an urgent toast goes through a pause silently; the pause is asked only then).
    func playSound() {
        guard let sound = request.sound else { return }
        guard Sound.plays(paused: request.urgent && display.pause(now: Clock.wall()) != nil) else { return }
        do throws(SoundPlayer.Failure) {
            let player = try SoundPlayer.shared().get()
            switch sound {
            case .named(let name): try player.play(name: name, path: nil, description: name)
            case .file(let path): try player.play(name: nil, path: path, description: path)
            }
        } catch {
            warn("\(error.description); the toast shows without it")
        }
    }
}
