import Foundation
import NANSystem
import Testing

@testable import WiFiAware

@Suite struct ErrorTests {
    @Test func codesMatchInCatchClauses() {
        let error: any Error = WAError(.noPairedDevices)
        var matched = ""
        do {
            throw error
        } catch WAError.deviceInvalid {
            matched = "deviceInvalid"
        } catch WAError.Code.noPairedDevices {
            matched = "noPairedDevices"
        } catch {
            matched = "other"
        }
        #expect(matched == "noPairedDevices")
        #expect(!(WAError.Code.kernel ~= CocoaError(.fileNoSuchFile)))
    }

    @Test func everyErrorPrintsItsMessage() {
        let error = WAError(.connectionTerminated, message: "the peer went away")
        #expect(error.description == "the peer went away")
        #expect(error.localizedDescription == "the peer went away")
        #expect("\(error)" == "the peer went away")
        #expect(WAError.Code.serviceAlreadyPublishing.description == "serviceAlreadyPublishing")
    }

    @Test(arguments: [
        (WAError.Code.wifiAwareUnsupported, "iw list"),
        (.serviceNotDeclared, "WiFiAwareServices"),
        (.noPairedDevices, "waware devices add"),
        (.deviceInvalid, "waware devices list"),
        (.noRadioResources, "end another session"),
        (.serviceAlreadyPublishing, "cancel the other publisher"),
        (.serviceAlreadySubscribing, "cancel the other subscriber"),
        (.permissionDenied, "CAP_NET_ADMIN"),
        (.adapterNotFound, "waware list"),
        (.servicesFileNotFound, "WAWARE_SERVICES"),
    ])
    func generalMessagesSayWhatToDo(_ code: WAError.Code, _ advice: String) {
        #expect(WAError(code).message.contains(advice))
    }

    @Test func kernelErrorsKeepErrnoAndTheKernelsMessage() {
        let error = WAError.kernel("start NAN", errno: .invalidArgument, kernelMessage: "bands must include 2.4 GHz")
        #expect(error.code == .kernel)
        #expect(error.errno == 22)
        #expect(error.kernelMessage == "bands must include 2.4 GHz")
        #expect(
            error.message
                == "cannot start NAN: Invalid argument (EINVAL); the kernel says: bands must include 2.4 GHz")
    }

    @Test func kernelErrnosWithAClearMeaningGetTheirOwnCodes() {
        #expect(
            WAError.kernel("create the NAN interface", errno: .notPermitted, kernelMessage: nil).code
                == .permissionDenied)
        #expect(
            WAError.kernel("create the NAN interface", errno: .notPermitted, kernelMessage: nil).message.contains(
                "setcap"))
        #expect(WAError.kernel("start NAN", errno: .noSuchDevice, kernelMessage: nil).code == .adapterNotFound)
        #expect(
            WAError.kernel("add a NAN function", errno: .notSupported, kernelMessage: nil).code == .wifiAwareUnsupported
        )
    }

    @Test func fileErrorsSayWhichFileAndWhy() {
        let denied = WAError.file(
            FileError(operation: "read", path: "/var/lib/waware/devices.json", errno: .accessDenied),
            action: "read the device store", path: "/var/lib/waware/devices.json")
        #expect(denied.code == .permissionDenied)
        #expect(denied.errno == 13)
        #expect(denied.message.contains("/var/lib/waware/devices.json"))

        let full = WAError.file(
            FileError(operation: "write", path: "/x/devices.json", errno: .noSpace),
            action: "write the device store", path: "/x/devices.json")
        #expect(full.code == .storageFailed)
        #expect(full.message == "cannot write the device store /x/devices.json: No space left on device (ENOSPC)")
    }
}
