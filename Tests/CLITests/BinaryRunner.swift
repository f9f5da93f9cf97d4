import Foundation

/// Runs the built `waware` executable and captures what it printed.
///
/// The binary is found next to the test bundle (SwiftPM puts both in the build products directory), or at
/// `$WAWARE_BINARY` when that is set.
enum BinaryRunner {
    /// What one run printed and how it exited.
    struct Result: Sendable {
        /// The exit status.
        var status: Int32
        /// Everything written to standard output.
        var stdout: String
        /// Everything written to standard error.
        var stderr: String

        /// Standard error split into lines, without the final empty one.
        var stderrLines: [String] {
            stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// The path of the `waware` binary.
    static var binaryURL: URL {
        if let override = ProcessInfo.processInfo.environment["WAWARE_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testExecutable.deletingLastPathComponent()
        // On Linux the tests run from <products>/<name>.xctest; elsewhere they may sit inside a bundle.
        while !directory.path.isEmpty, directory.path != "/" {
            let candidate = directory.appendingPathComponent("waware")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return testExecutable.deletingLastPathComponent().appendingPathComponent("waware")
    }

    /// Runs `waware` with `arguments` and waits for it to exit.
    static func run(_ arguments: [String]) throws -> Result {
        try run(arguments, standardInput: nil)
    }

    /// Runs `waware` with `arguments`, standard input read from the file at `standardInput` (the null
    /// device when nil), started through `launcher` (e.g. `setpriv --reuid=65534 ...`) when given; another
    /// program of the package than `waware` with `executable`.
    static func run(
        _ arguments: [String], standardInput: String?, launcher: [String] = [], executable: URL? = nil
    ) throws -> Result {
        let process = Process()
        let program = executable ?? binaryURL
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + [program.path] + arguments
        } else {
            process.executableURL = program
            process.arguments = arguments
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput =
            try standardInput.map { path in
                guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
                return handle
            } ?? FileHandle.nullDevice
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let errData = ReadAll(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.wait(), as: UTF8.self))
    }
}

/// Reads a file handle to its end on a background thread.
private final class ReadAll: @unchecked Sendable {
    // Written once by the reader thread before `done` is signalled, read only after waiting on it.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
