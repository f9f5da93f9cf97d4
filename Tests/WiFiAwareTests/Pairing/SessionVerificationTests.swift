import Foundation
import NANWire
import Testing

@testable import WiFiAware

/// A session of paired devices verifies each paired publisher before reporting it. One failed verification
/// (which a spoofed frame can cause) hides the peer only for a while: heard again after the wait, it is
/// verified again.
@Suite struct SessionVerificationTests {
    static let service = try! WAServiceName("_chat._tcp")

    /// A publisher found at address `n`, of a device that holds a pairing key.
    static func endpoint(_ n: Int) throws -> WAEndpoint {
        var device = WAPairedDevice(
            id: WAPairedDevice.ID(UUID()), displayName: "D\(n)", pairingInfo: nil,
            managementAddresses: [testAddress(n)],
            identityKey: nil, dateAdded: Date())
        device.pairingKey = try WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 0x5a, count: 32), method: .sae)
        return WAEndpoint(
            address: testAddress(n), instanceID: InstanceID(1), localInstanceID: InstanceID(1), service: service,
            serviceInfo: [], offersDataPath: false, device: device,
            performance: WAPerformanceReport(
                signalStrength: nil, frequency: nil, discoveryWindowsHeard: 1, lastHeard: .now))
    }

    static func isVerify(_ decision: SessionVerification.Decision) -> Bool {
        if case .verify = decision { return true }
        return false
    }

    static func isDrop(_ decision: SessionVerification.Decision) -> Bool {
        if case .drop = decision { return true }
        return false
    }

    @Test func aPeerThatFailedIsVerifiedAgainWhenHeardAfterTheWait() async throws {
        let verification = SessionVerification(retryAfter: .milliseconds(100))
        let peer = try Self.endpoint(1)
        #expect(Self.isVerify(verification.decide(.discovered(peer))))
        #expect(Self.isDrop(verification.decide(.updated(peer))))  // its verification runs
        verification.finished(peer.address, passed: false)
        #expect(Self.isDrop(verification.decide(.updated(peer))))  // within the wait
        try await Task.sleep(for: .milliseconds(150))
        #expect(Self.isVerify(verification.decide(.updated(peer))))  // heard again after it
        verification.finished(peer.address, passed: true)
        guard case .deliver = verification.decide(.updated(peer)) else {
            Issue.record("a verified peer's updates are not delivered")
            return
        }
    }

    @Test func aLossDuringTheWaitDoesNotStartAVerification() async throws {
        let verification = SessionVerification(retryAfter: .milliseconds(50))
        let peer = try Self.endpoint(2)
        #expect(Self.isVerify(verification.decide(.discovered(peer))))
        verification.finished(peer.address, passed: false)
        try await Task.sleep(for: .milliseconds(80))
        #expect(Self.isDrop(verification.decide(.lost(peer))))
        #expect(Self.isVerify(verification.decide(.discovered(peer))))
    }

    @Test func aPeerWithoutAPairingKeyIsDeliveredUnverified() throws {
        let verification = SessionVerification()
        var peer = try Self.endpoint(3)
        peer.device = nil
        guard case .deliver = verification.decide(.discovered(peer)) else {
            Issue.record("an unpaired endpoint was held for verification")
            return
        }
    }
}
