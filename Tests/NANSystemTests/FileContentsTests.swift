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
