internal import Glibc

/// Ending the process and the signals a command-line program handles, for code above NANSystem
/// (which imports no C module).
public enum ProcessControl {
    /// A signal number with a name.
    public struct Signal: RawRepresentable, Hashable, Sendable {
        /// The signal number.
        public var rawValue: Int32
        /// Wraps a signal number.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `SIGINT` (Ctrl-C).
        public static var interrupt: Signal { Signal(rawValue: SIGINT) }
        /// `SIGTERM` (a polite request to end, e.g. from systemd or `kill`).
        public static var terminate: Signal { Signal(rawValue: SIGTERM) }
        /// `SIGPIPE` (a write to a pipe nobody reads).
        public static var brokenPipe: Signal { Signal(rawValue: SIGPIPE) }
    }

    /// Ends the process now with `status` (`exit(3)`: stdio buffers are flushed).
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Makes the process ignore `signal` (so a dispatch signal source can watch it instead).
    public static func ignore(_ signal: Signal) {
        _ = Glibc.signal(signal.rawValue, SIG_IGN)
    }
}
