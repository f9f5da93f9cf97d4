@_spi(Tools) import WiFiAware

// The entry point: everything else lives in the command types (Commands/) and the small framework
// (Framework/) that parses the command line and maps failures to exit codes.
// First, while this is the only thread: keep only CAP_NET_ADMIN, all the radio needs (docs/security.md).
// Threads made later inherit the narrowed sets; nothing is added to a process that lacks it.
ToolProcess.keepOnlyNetAdmin()
// One malloc arena, not one per thread that allocates: less resident memory (issue 26).
ToolProcess.useOneMallocArena()
Diagnostics.configure()
let status = await CommandRunner.run(Waware.self, arguments: Array(CommandLine.arguments.dropFirst()))
ToolProcess.exit(status.rawValue)
