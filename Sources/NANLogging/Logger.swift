/// How much a log message matters, lowest first.
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Timing diagnostics: one line per discovery window, frame sent or received.
    case trace
    /// Details for developers.
    case debug
    /// Normal events worth a line.
    case info
    /// Something went wrong but the work goes on (a fallback, a dropped event).
    case warning
    /// The work failed.
    case error

    /// Orders by severity.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where log messages go. The program (a CLI, a daemon, a test) implements it; libraries never do.
public protocol LogHandler: Sendable {
    /// Takes one message. Called from any task or thread; must not block.
    ///
    /// - Parameters:
    ///   - level: its level (at or above the logger's).
    ///   - label: the subsystem that logged it, e.g. `discovery` or `runtime`.
    ///   - message: the text, one line.
    func log(level: LogLevel, label: String, message: String)
}

/// The caller's log handler as a library takes it: libraries accept a `Logger` and never make their own
/// (swift-log's practice), so a daemon or another program embedding them routes the logs where it wants.
///
/// A message below ``level`` is not even built (its text is an autoclosure).
///
/// ```swift
/// struct StandardError: LogHandler {
///     func log(level: LogLevel, label: String, message: String) { … }
/// }
/// var options = WASystemOptions()
/// options.logger = Logger(label: "waware", level: .trace, handler: StandardError())
/// ```
public struct Logger: Sendable {
    /// The subsystem, passed to the handler.
    public var label: String
    /// The lowest level passed on.
    public var level: LogLevel
    /// The handler; nil drops everything.
    public var handler: (any LogHandler)?

    /// Makes a logger.
    public init(label: String, level: LogLevel = .info, handler: (any LogHandler)?) {
        self.label = label
        self.level = level
        self.handler = handler
    }

    /// A logger that drops everything: the default of every library option.
    public static let disabled = Logger(label: "", level: .error, handler: nil)

    /// Whether a message at `level` would reach the handler.
    public func isEnabled(_ level: LogLevel) -> Bool {
        handler != nil && level >= self.level
    }

    /// Logs a message if its level is enabled.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level), let handler else { return }
        handler.log(level: level, label: label, message: message())
    }

    /// Logs at ``LogLevel/trace``.
    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    /// Logs at ``LogLevel/debug``.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at ``LogLevel/info``.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at ``LogLevel/warning``.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }

    /// The same handler and level under another subsystem label.
    public func labelled(_ label: String) -> Logger {
        var copy = self
        copy.label = label
        return copy
    }
}
