import Foundation
import Testing

@testable import waware

/// Output that cannot be written ends the tool cleanly: exit 74 (outputFailed), one line on standard error
/// when that still works, nothing at all when the reader went away; never a trap (exit 132) or a backtrace.
@Suite struct OutputFailureTests {
    /// Runs `script` with `sh -c`, `$W` set to the waware binary; returns the script's standard output.
    func shell(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["W"] = BinaryRunner.binaryURL.path
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aFullStandardOutputExits74WithOneLineOnStandardError() throws {
        let text = try shell(#"e=$(mktemp); "$W" --help 2>"$e" >/dev/full; echo "status $?"; cat "$e"; rm -f "$e""#)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "status 74")
        #expect(
            Array(lines.dropFirst()) == ["waware: cannot write to standard output: No space left on device (ENOSPC)"])
    }

    @Test func aFullStandardErrorKeepsTheCommandsOwnExitCode() throws {
        let text = try shell(#""$W" decode zz 2>/dev/full; echo "status $?""#)
        let status = text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "status \(ExitCode.outputFailed.rawValue)" || status == "status \(ExitCode.usage.rawValue)")
        #expect(status != "status 132")
    }

    @Test func aClosedPipeWithSIGPIPEIgnoredExitsQuietlyWith74() throws {
        // The reader (true) is gone before waware writes; SIGPIPE is ignored as under systemd.
        let text = try shell(#"exec 3>&1; trap '' PIPE; { sleep 0.5; "$W" --help 2>&3; echo "status $?" >&3; } | true"#)
        #expect(text == "status 74\n")
    }
}
