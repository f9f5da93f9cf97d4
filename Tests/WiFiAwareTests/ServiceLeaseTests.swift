import Foundation
import Testing

@testable import WiFiAware

@Suite struct ServiceLeaseTests {
    /// The flags of this process's open descriptor for `path` (from /proc/self/fdinfo), if it has one.
    private func openFlags(of path: String) throws -> Int? {
        for name in try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                target == path
            else { continue }
            let info = try String(contentsOfFile: "/proc/self/fdinfo/\(name)", encoding: .utf8)
            let line = info.split(separator: "\n").first { $0.hasPrefix("flags:") }
            return line.flatMap { Int($0.dropFirst("flags:".count).trimmingCharacters(in: .whitespaces), radix: 8) }
        }
        return nil
    }

    @Test func theLeaseDescriptorIsCloseOnExecSoAChildCannotKeepIt() async throws {
        try await withTemporaryDirectory { folder in
            let service = try WAServiceName("_lease._tcp")
            let lease = try ServiceLease.acquire(adapter: "phy9", role: .publish, service: service, directory: folder)
            defer { lease.release() }
            let path = folder.appendingPathComponent("phy9.publish._lease._tcp.lock").path
            let flags = try #require(try openFlags(of: path))
            #expect(flags & 0o2000000 != 0, "O_CLOEXEC is not set: flags \(String(flags, radix: 8))")
        }
    }
}
