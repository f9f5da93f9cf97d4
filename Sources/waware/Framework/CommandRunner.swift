/// Runs a command line from start to exit status: parse, validate, run, and turn every error into one
/// line on standard error and an ``ExitCode``.
enum CommandRunner {
    /// Parses `arguments` (without the program name) against `root`, runs the chosen command and returns the
    /// status to exit with. Never throws: every failure is reported on `output` here.
    static func run(_ root: any Command.Type, arguments: [String], output: Output = Output()) async -> ExitCode {
        let invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(arguments, root: root)
        } catch {
            return report(error, output: output)
        }

        switch invocation {
        case .help(let command, let path):
            output.write(HelpFormatter.help(for: command, path: path))
            return .success
        case .version(let version):
            output.write(version)
            return .success
        case .run(let command, _):
            do {
                try await command.run(output)
                return .success
            } catch {
                return report(error, output: output)
            }
        }
    }

    /// Prints the one-line message for `error` and returns its exit code.
    static func report(_ error: any Error, output: Output) -> ExitCode {
        switch error {
        case let silent as SilentExit:
            return silent.code
        case let code as ExitCode:
            return code
        default:
            let failure = ErrorTranslation.failure(for: error)
            output.fail(failure.message)
            return failure.code
        }
    }
}
