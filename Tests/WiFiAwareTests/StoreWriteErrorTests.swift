import NANSystem
import Testing

@testable import WiFiAware

/// The device store writes through NANSystem's `PrivateFile`; its errors keep the store's error codes.
@Suite struct StoreWriteErrorTests {
    @Test func deniedReplacementIsPermissionDenied() {
        let error = WAError.file(
            FileError(
                operation: "create a temporary file in /var/lib/waware", path: "/var/lib/waware", errno: .accessDenied),
            action: "write the device store", path: "/var/lib/waware/devices.json")
        #expect(error.code == .permissionDenied)
        #expect(error.errno == 13)
        #expect(error.message.contains("/var/lib/waware/devices.json"))
    }

    @Test func otherReplacementFailuresAreStorageFailed() {
        let error = WAError.file(
            FileError(operation: "write /x/.devices.json.1.tmp", path: "/x/.devices.json.1.tmp", errno: .noSpace),
            action: "write the device store", path: "/x/devices.json")
        #expect(error.code == .storageFailed)
        #expect(error.message == "cannot write the device store /x/devices.json: No space left on device (ENOSPC)")
    }
}
