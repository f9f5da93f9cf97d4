import Foundation
import Glibc
import Testing

@testable import NANSystem

@Suite struct FileContentsTests {
    @Test func readingStopsAtTheLimit() throws {
        let descriptor = open("/dev/zero", O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect {
            try FileContents.readAll(descriptor, limit: 100_000, operation: "read zeros", path: "/dev/zero")
        } throws: { error in
            (error as? FileError)?.problem?.contains("more than 100000 bytes") == true
        }
    }

    @Test func aDeviceOrFolderIsNotARegularFile() {
        for path in ["/dev/zero", "/tmp"] {
            #expect {
                try FileContents.readRegularFile(at: path, limit: 10, what: "the test file")
            } throws: { error in
                (error as? FileError)?.isNotRegularFile == true
            }
        }
    }

    @Test func aPrivateFileMustBeTheUsersAndClosedToOthers() throws {
        let path = "/tmp/waware-private-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(path) }
        try PrivateFile.replace(at: path, with: Array("key".utf8))
        #expect(
            try FileContents.readRegularFile(at: path, limit: 10, what: "the key", privateToOwner: true)
                == Array("key".utf8))
        #expect(chmod(path, 0o640) == 0)
        #expect {
            try FileContents.readRegularFile(at: path, limit: 10, what: "the key", privateToOwner: true)
        } throws: { ($0 as? FileError)?.problem?.contains("mode 640") == true }
        // not private: read
        #expect(try FileContents.readRegularFile(at: path, limit: 10, what: "the key") == Array("key".utf8))
        #expect(chmod(path, 0o600) == 0)
        // Another user's file (only root can make one here; the bench and CI run as root).
        if geteuid() == 0 {
            #expect(chown(path, 4321, 4321) == 0)
            #expect {
                try FileContents.readRegularFile(at: path, limit: 10, what: "the key", privateToOwner: true)
            } throws: { ($0 as? FileError)?.problem?.contains("belongs to user 4321") == true }
        }
    }

    @Test func aMissingFileIsNil() throws {
        #expect(try FileContents.readRegularFile(at: "/nonexistent/waware", limit: 10, what: "x") == nil)
    }

    @Test func interruptedCallsAreRetriedAndFailuresNamed() {
        var calls = 0
        let result = try? SystemCall.retrying { () -> Int32 in
            calls += 1
            if calls < 3 {
                Glibc.errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        #expect(throws: Errno.badFileDescriptor) { try SystemCall.retrying { close(-1) } }
    }
}
