import Foundation
import Testing

/// `waware` started as root keeps only CAP_NET_ADMIN, on every thread, before it reads anything from the
/// radio: a flaw in the parsing of frames from the air then gives no more than the radio (issue 24,
/// docs/security.md). Watched from outside, in `/proc/PID/status`, while the binary waits on its input.
@Suite struct CapabilityDropTests {
    /// The capability lines of `/proc/pid/task/*/status`, one dictionary per thread.
    static func threadStatuses(of pid: Int32) -> [[String: String]] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else {
                return nil
            }
            var fields: [String: String] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].hasPrefix("Cap") || parts[0] == "NoNewPrivs" else { continue }
                fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
            }
            return fields
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: the drop is from every capability"))
    func startedAsRootItKeepsOnlyNetAdminOnEveryThread() throws {
        let process = Process()
        process.executableURL = BinaryRunner.binaryURL
        process.arguments = ["decode", "-"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let netAdminOnly = "0000000000001000"
        var threads: [[String: String]] = []
        for _ in 0..<200 {
            threads = Self.threadStatuses(of: process.processIdentifier)
            if !threads.isEmpty, threads.allSatisfy({ $0["CapEff"] == netAdminOnly }) { break }
            Thread.sleep(forTimeInterval: 0.025)
        }
        try #require(!threads.isEmpty)
        for thread in threads {
            #expect(thread["CapEff"] == netAdminOnly && thread["CapPrm"] == netAdminOnly)
            #expect(thread["CapBnd"] == netAdminOnly && thread["CapInh"] == "0000000000000000")
            #expect(thread["CapAmb"] == "0000000000000000" && thread["NoNewPrivs"] == "1")
        }
    }
}
