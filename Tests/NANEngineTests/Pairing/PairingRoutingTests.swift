import NANSystem
import NANWire
import Testing
@testable import NANEngine

/// The runtime's router hands PASN Authentication frames to the pairing client only.
@Suite struct PairingRoutingTests {
    @Test func authenticationFramesGoOnlyToThePairingClient() async throws {
        let nmi = WirelessDeviceID(rawValue: UInt64(3) << 32 | 1)
        let router = NANEventRouter(wiphy: WiphyIndex(rawValue: 3), managementInterface: nmi)
        let pairing = router.register(PairingEngine.runtimeInterest)
        let discovery = router.register(NANEventInterest(framePrefixes: [NANFramePrefix.serviceDiscovery]))
        let body = PASNAuthenticationFrame(sequence: 1, elements: [])
        let auth = try PASNManagementFrame(
            body: body, destination: MACAddress(2, 0, 0, 0, 0, 1), source: MACAddress(2, 0, 0, 0, 0, 2),
            bssid: MACAddress(0x50, 0x6f, 0x9a, 1, 0, 1)
        ).encoded()
        var notPASN = auth
        notPASN[24] = 0x03  // SAE, not PASN
        let sdf = [0xD0, 0x00] + [UInt8](repeating: 0, count: 22) + NANFramePrefix.serviceDiscovery
        for bytes in [auth, notPASN, sdf] {
            router.route(.frameReceived(wdev: nmi, frequency: Frequency(megahertz: 2437), signalDBM: nil, bytes: bytes))
        }
        router.finish()
        var heardByPairing: [[UInt8]] = [], heardByDiscovery: [[UInt8]] = []
        for try await case .frameReceived(_, _, _, let bytes) in pairing { heardByPairing.append(bytes) }
        for try await case .frameReceived(_, _, _, let bytes) in discovery { heardByDiscovery.append(bytes) }
        #expect(heardByPairing == [auth])
        #expect(heardByDiscovery == [sdf])
    }
}
