import CX11
import Foundation
import Testing

extension OnScreen {
    @Suite struct ScheduleAndStack {
        @Test func inTwoSecondsAppearsAfterTwoSeconds() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let started = Date()
            let toast = try XToastProcess(["--in", "2s", "--duration", "0", "--print-outcome", "Tea"], display: display)
            _ = try watcher.waitForToasts(timeout: 10)
            let waited = Date().timeIntervalSince(started)
            #expect(waited >= 2 && waited < 4, "appeared after \(waited) s")
            #expect(try toast.wait().stdout == "expired\n")
        }

        @Test func atATimeInAZoneAppearsThen() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let formatter = DateFormatter()
            formatter.timeZone = TimeZone(identifier: "Asia/Tokyo")
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
            let due = Date().addingTimeInterval(2).addingTimeInterval(1).timeIntervalSince1970.rounded(.down)
            let text = formatter.string(from: Date(timeIntervalSince1970: due))
            let toast = try XToastProcess(["--at", text, "--tz", "Asia/Tokyo", "--duration", "0", "Due"], display: display)
            _ = try watcher.waitForToasts(timeout: 10)
            let now = Date().timeIntervalSince1970
            #expect(now >= due && now < due + 1.5, "shown at \(now), due \(due)")
            #expect(try toast.wait().status == 0)
        }

        @Test func cancelScheduledEndsTheWaitingOnes() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let tea = try XToastProcess(["--in", "1h", "--tag", "tea", "--print-outcome", "Tea"], display: display)
            let meeting = try XToastProcess(["--in", "1h", "--print-outcome", "Meeting"], display: display)
            try waitForList(watcher, "_XTOAST_SCHEDULED", length: 2)
            #expect(try XToastProcess.run(["--cancel-scheduled", "--tag", "tea"], display: display).status == 0)
            #expect(try tea.wait().stdout == "dismissed\n")
            #expect(meeting.child.isRunning)
            #expect(try XToastProcess.run(["--cancel-scheduled"], display: display).status == 0)
            #expect(try meeting.wait().stdout == "dismissed\n")
            #expect(watcher.mappedToasts().isEmpty)
        }

        @Test func stackedToastsShowTogetherAndCloseTheGap() throws {
            let (display, watcher) = try prepareSharedDisplay()
            let toasts = try (1...3).map { i -> XToastProcess in
                let toast = try XToastProcess(["--stack", "--monitor", "L", "--duration", "sticky", "Stacked \(i)"], display: display)
                _ = try watcher.waitForToasts()
                return toast
            }
            let windows = watcher.mappedToasts().sorted { (watcher.pid($0) ?? 0) < (watcher.pid($1) ?? 0) }
            // A toast placed before the one below it announced its box slides up once it has:
            // look once the windows stop moving.
            func settled() -> [(x: Int, y: Int, width: Int, height: Int)] { windows.compactMap { watcher.geometry($0) } }
            var frames = settled()
            let settling = Date().addingTimeInterval(5)
            while zip(frames, frames.dropFirst()).contains(where: { $1.y + $1.height > $0.y }),
                watcher.nextEvent(timeout: settling.timeIntervalSinceNow) != nil
            {
                frames = settled()
            }
            #expect(frames.count == 3)
            // Bottom position: the first at the bottom, each next one above, none overlapping.
            for (lower, upper) in zip(frames, frames.dropFirst()) {
                #expect(upper.y + upper.height <= lower.y, "\(upper) overlaps \(lower)")
            }
            #expect(frames[0].y == 1080 - 15 - frames[0].height)

            toasts[0].signal(SIGUSR1)
            // The second slides down into the first one's place.
            let deadline = Date().addingTimeInterval(5)
            while watcher.geometry(windows[1])?.y != frames[0].y, let _ = watcher.nextEvent(timeout: deadline.timeIntervalSinceNow) {}
            #expect(watcher.geometry(windows[1])?.y == frames[0].y)
            for toast in toasts.dropFirst() { toast.signal(SIGUSR1) }
            for toast in toasts { #expect(try toast.wait().status == 0) }
        }
    }
}

/// Waits until a root list property holds `length` live tickets.
func waitForList(_ watcher: XWatcher, _ name: String, length: Int, timeout: Double = 10) throws {
    watcher.watchRootProperties()
    let deadline = Date().addingTimeInterval(timeout)
    while watcher.liveTickets(name).count != length {
        guard watcher.nextEvent(timeout: deadline.timeIntervalSinceNow) != nil || Date() < deadline else {
            throw TestFailure("\(name) has \(watcher.liveTickets(name).count) live tickets, not \(length), after \(timeout) s")
        }
    }
}

extension OnScreen.ScheduleAndStack {
    /// `--at 09:00` without `--tz` means 09:00 in the local zone, also after the zone changes.
    @Test func aLocalTimeFollowsATimeZoneChange() throws {
        let (display, watcher) = try prepareSharedDisplay()
        let folder = temporaryPath("-zone")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let link = folder + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/UTC")

        // Three seconds from now on Tokyo's clock: nine hours away while the zone is UTC.
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "Asia/Tokyo")
        formatter.dateFormat = "HH:mm:ss"
        let due = Date().addingTimeInterval(4).timeIntervalSince1970.rounded(.down)
        let wallTime = formatter.string(from: Date(timeIntervalSince1970: due))
        let toast = try XToastProcess(
            ["--at", wallTime, "--duration", "0", "--print-outcome", "Zone"], display: display, environment: ["TZ": ":" + link])
        try waitForList(watcher, "_XTOAST_SCHEDULED", length: 1)

        // The machine moves to Tokyo: the same wall-clock time is now four seconds away.
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
        _ = try watcher.waitForToasts(timeout: 10)
        let now = Date().timeIntervalSince1970
        #expect(now >= due && now < due + 1.5, "shown at \(now), due \(due)")
        #expect(try toast.wait().stdout == "expired\n")
    }
}
