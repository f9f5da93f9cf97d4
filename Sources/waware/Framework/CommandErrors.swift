/// A command line that parsed but makes no sense (a bad value, options that exclude each other).
///
/// Thrown from a command's `init(from:)` or `validate()`; the tool prints the message on one line and exits
/// with ``ExitCode/usage``.
struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in words the user can act on.
    let message: String

    /// Creates a validation error with a one-line message.
    init(_ message: String) { self.message = message }

    var description: String { message }
}

/// A failure while a command runs: a one-line message for stderr and the code to exit with.
struct CommandFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong and, where possible, what to do about it.
    let message: String
    /// The status the process exits with.
    let code: ExitCode

    /// Creates a failure with a message and an exit code.
    init(_ message: String, code: ExitCode = .failure) {
        self.message = message
        self.code = code
    }

    var description: String { message }
}

/// Thrown by a command that has already said everything it needs to and wants the tool to exit with
/// `code`, printing nothing more.
struct SilentExit: Error, Equatable, Sendable {
    /// The status the process exits with.
    let code: ExitCode
}
