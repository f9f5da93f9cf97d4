import NANSystem

// The entry point: everything else lives in the command types (Commands/) and the small framework
// (Framework/) that parses the command line and maps failures to exit codes.
Diagnostics.configure()
let status = await CommandRunner.run(Waware.self, arguments: Array(CommandLine.arguments.dropFirst()))
ProcessControl.exit(status.rawValue)
