// wawared: one owner per NAN radio, serving programs over a Unix socket (docs/daemon.md).
//
//   wawared [--socket PATH] [--group NAME]
//
// The socket is systemd's when started by wawared.socket (LISTEN_FDS), else PATH (default
// /run/waware/wawared.socket, or $WAWARED_SOCKET), created root:GROUP 0660. Ends on SIGTERM or SIGINT,
// stopping every client's sessions and NAN on every adapter it started.
import FoundationEssentials
import NANDaemon
import NANEngine
import NANLogging
import NANSystem

/// Lines for the journal on standard error.
struct StandardErrorLog: LogHandler {
    func log(level: LogLevel, label: String, message: String) {
        try? StandardStream.standardError.write("wawared: \(message)\n")
    }
}

func fail(_ line: String, _ status: Int32) -> Never {
    try? StandardStream.standardError.write("wawared: \(line)\n")
    ProcessControl.exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
var socketPath = environment["WAWARED_SOCKET"] ?? DaemonProtocol.defaultSocketPath
var group = DaemonProtocol.group
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    switch flag {
    case "--socket" where !arguments.isEmpty: socketPath = arguments.removeFirst()
    case "--group" where !arguments.isEmpty: group = arguments.removeFirst()
    case "--help", "-h":
        try? StandardStream.standardOutput.write("usage: wawared [--socket PATH] [--group NAME]\n")
        ProcessControl.exit(0)
    default: fail("unknown argument \(flag); usage: wawared [--socket PATH] [--group NAME]", 2)
    }
}

let logger = Logger(label: "wawared", level: .info, handler: StandardErrorLog())
let listener: LocalSocket
if environment["LISTEN_FDS"] == "1",
    environment["LISTEN_PID"].flatMap(Int32.init) == ProcessInfo.processInfo.processIdentifier
{
    listener = LocalSocket.adoptListener(descriptor: 3, path: socketPath)
} else {
    let directory = String(socketPath[..<(socketPath.lastIndex(of: "/") ?? socketPath.startIndex)])
    if !directory.isEmpty {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    do {
        listener = try LocalSocket.listen(at: socketPath, mode: 0o660, group: group)
    } catch {
        fail("cannot listen at \(socketPath): \(error)", 1)
    }
}

let pool = RadioPool()
let server = DaemonServer(listener: listener, radios: pool, policy: AccessPolicy(group: group), logger: logger)
await pool.setClientLines { await server.clientLines() }

ProcessControl.ignore(.brokenPipe)
let serving = Task { try await server.run() }
let signals = cancelOnTermination(serving)
try? StandardStream.standardError.write("wawared: listening at \(socketPath)\n")
do {
    try await serving.value
} catch {
    try? StandardStream.standardError.write("wawared: \(error)\n")
}
await pool.stopAll()
if environment["LISTEN_FDS"] == nil { listener.unlinkPath() }
withExtendedLifetime(signals) {}
ProcessControl.exit(0)
