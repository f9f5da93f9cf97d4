import NANEngine
import NANSystem
import Testing

@testable import WiFiAware

@Suite struct EngineErrorTests {
    @Test func netlinkPermissionDeniedBecomesPermissionDeniedWithTheCapabilityToGrant() {
        let error = WAError.from(
            NetlinkError(code: .permissionDenied, errno: .notPermitted, call: "NL80211_CMD_START_NAN"),
            while: "start NAN")
        #expect(error.code == .permissionDenied)
        #expect(error.errno == 1)
        #expect(error.message.contains("CAP_NET_ADMIN"))
    }

    @Test func missingNL80211FamilyHasItsOwnCode() {
        let error = WAError.from(NetlinkError(code: .familyNotFound, call: "genl_ctrl_resolve"), while: "list adapters")
        #expect(error.code == .nl80211Unavailable)
        #expect(error.message.contains("cfg80211"))
    }

    @Test func netlinkCodesWithoutErrnoStillMapByMeaning() {
        #expect(WAError.from(NetlinkError(code: .noSuchDevice, call: "x"), while: "y").code == .adapterNotFound)
        #expect(WAError.from(NetlinkError(code: .notSupported, call: "x"), while: "y").code == .wifiAwareUnsupported)
        #expect(WAError.from(NetlinkError(code: .alreadyRunning, call: "x"), while: "y").code == .alreadyRunning)
        let other = WAError.from(
            NetlinkError(code: .kernel, errno: .invalidArgument, kernelMessage: "bad band", call: "x"),
            while: "start NAN")
        #expect(other.code == .kernel)
        #expect(other.kernelMessage == "bad band")
        #expect(other.message.contains("bad band"))
    }

    @Test func discoveryErrorsMapToApplesCodes() {
        #expect(WAError.from(DiscoveryError.tooManyServices).code == .noRadioResources)
        #expect(WAError.from(DiscoveryError.sessionEnded).code == .connectionTerminated)
        #expect(WAError.from(DiscoveryError.tooLong(300, limit: 255)).code == .invalidArgument)
        #expect(WAError.from(DiscoveryError.offloadUnavailable).code == .wifiAwareUnsupported)
    }

    @Test func aWAErrorPassesThroughUnchanged() {
        let original = WAError(.deviceInvalid, message: "gone")
        let mapped = WAError.from(original, while: "anything")
        #expect(mapped.code == .deviceInvalid)
        #expect(mapped.message == "gone")
    }
}

/// A data-path failure reaches the API by its code, never by its text.
@Suite struct DataPathErrorMappingTests {
    @Test func eachDataPathCodeBecomesItsWAErrorCode() {
        #expect(WAError.from(DataPathError.tooManyDataPaths, while: "x").code == .noRadioResources)
        #expect(WAError.from(DataPathError(.notSupported), while: "x").code == .wifiAwareUnsupported)
        #expect(WAError.from(DataPathError(.noSecureNAN), while: "x").code == .wifiAwareUnsupported)
        #expect(WAError.from(DataPathError.stopped, while: "x").code == .connectionTerminated)
        let refused = WAError.from(DataPathError(.kernelStep, "add the peer", errno: .invalidArgument), while: "x")
        #expect(refused.code == .kernel && refused.errno == Errno.invalidArgument.rawValue)
        #expect(WAError.from(DataPathError(.kernelStep, errno: .notPermitted), while: "x").code == .permissionDenied)
    }
}
