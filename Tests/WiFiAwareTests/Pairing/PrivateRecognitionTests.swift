import Foundation
import NANWire
import Testing

@testable import NANEngine
@testable import WiFiAware

/// Sessions that select paired devices recognise a device paired by NAN pairing from the NIRA its frames
/// carry, whatever its NMI now: a restart with a random NMI does not lose it, and an unpaired device (or a
/// replayed NIRA from another address) is never taken for it.
@Suite struct PrivateRecognitionTests {
    let chat = try! WASubscribableService(name: WAServiceName("_chat._tcp"))

    func pairing(_ store: WADeviceStore, name: String, at n: Int, nik: NANIdentityKey) throws -> WAPairedDevice {
        try store.recordPairing(
            name: name, managementAddress: testAddress(n),
            identityKey: try WAPairedDevice.IdentityKey(bytes: nik.bytes),
            pairingKey: try WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 7, count: 32), method: .sae))
    }

    func result(from n: Int, nira: IdentityResolutionAttribute?, info: String) -> DiscoveryResult {
        var found = WiFiAwareTests.result(from: n, info: info)
        found.identityResolution = nira
        return found
    }

    @Test func aPairedDeviceUnderANewRandomNMIIsDiscoveredAndNamed() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                let nikA = try NANIdentityKey.random(), nikC = try NANIdentityKey.random()
                _ = try pairing(system.store, name: "A", at: 1, nik: nikA)
                var events = system.subscribe(to: chat, from: .allPairedDevices).makeAsyncIterator()
                #expect(try await events.next() == .started(InstanceID(1)))
                // C (unpaired, its own NIK), A's NIRA replayed from address 3, then A itself at address 2.
                backend.emit(
                    .discovered(result(from: 9, nira: try nikC.identityResolution(nmi: testAddress(9)), info: "C")))
                let niraA = try nikA.identityResolution(nmi: testAddress(2))
                backend.emit(.discovered(result(from: 3, nira: niraA, info: "replayed")))
                backend.emit(.discovered(result(from: 2, nira: niraA, info: "A again")))
                guard case .discovered(let endpoint) = try await events.next() else {
                    Issue.record("expected a discovery")
                    return
                }
                #expect(endpoint.address == testAddress(2))
                #expect(endpoint.device?.displayName == "A")
                #expect(endpoint.serviceInfo == Array("A again".utf8))
            }
        }
    }
}
