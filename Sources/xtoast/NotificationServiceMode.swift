import Glibc
import XToastCore
import XToastService
import XToastSystem
import XToastX11

/// `xtoast --notification-service`: the service's setting up, from the command's sources (the
/// display, the config file's rules), and its exit status.
enum NotificationServiceMode {
    /// `options`: the command line's, which win over the config file's.
    static func run(_ request: Configuration, options: [(definition: OptionDefinition, value: String)]) throws(CommandError) -> Int32 {
        // A service that cannot serve leaves it nothing to read: it ends without a word.
        let forked: NotificationService.ToastProcess?
        switch NotificationService.forkToastProcess() {
        // The toast process's status goes up through the service's frames to main's exit.
        case .toastProcess: return try NotificationChildMode.runForked()
        case .service(let process): forked = process
        }
        let display: XDisplay
        do {
            display = try XDisplay(name: request.display)
        } catch .noDisplay {
            // Started by the bus, the service has the environment the bus was given.
            throw .failure(
                "no display: DISPLAY is not set in the session bus's activation environment (run dbus-update-activation-environment DISPLAY XAUTHORITY in the X session's start-up)"
            )
        } catch {
            throw .failure(error.description)
        }
        var rules: [NotificationRule] = []
        // The service's own settings: the config file's, then the command line's.
        var settings = ConfigurationBuilder()
        if let config = ConfigSource.load(request) {
            let read = NotificationRule.rules(in: config.file)
            rules = read.rules
            for problem in read.problems { warn("\(config.path):\(problem.line): \(problem.message)") }
            var own = config.file
            own.global.removeAll { OptionTable.named($0.key)?.scope != .service }
            own.problems = []
            settings.apply(file: own, path: config.path, preset: nil)
        }
        try? settings.apply(commandLine: options.filter { $0.definition.scope == .service })
        for warning in settings.warnings { warn(warning) }
        var limits = Dispatcher.Limits()
        limits.kept = settings.configuration.keptNotifications
        limits.keptAge = Int(settings.configuration.keptNotificationAge)
        limits.bursts = settings.configuration.bursts
        limits.afterQuiet = settings.configuration.afterQuiet
        limits.idleTime = settings.configuration.serviceIdle
        if settings.origins["service-idle"] == nil, let text = Environment.value("XTOAST_NOTIFICATION_IDLE"), let seconds = Double(text),
            seconds > 0
        {
            limits.idleTime = seconds
        }
        let version = String(Documentation.version.dropFirst("xtoast ".count))
        let service = NotificationService(
            display: display, rules: rules, limits: limits, version: version, forked: forked, record: { HistoryFile.record($0) }, warn: warn
        )
        do throws(NotificationService.Ending) {
            return try service.run()
        } catch {
            throw CommandError(message: error.message ?? "the notification service failed", status: error.status)
        }
    }
}
