@testable import NANEngine
import NANWire
import Testing

/// Anyone can make a peer reject our bootstrapping request: a copy of it with other methods and our address
/// gets a rejection with our dialog token. A rejection waits 2 s for the peer's answer to our own request,
/// which counts instead (issue 24).
@Suite struct ForgedBootstrappingTests {
    typealias Air = PairingEngineTests.LoopbackAir
    static let a = PairingEngineTests.a, b = PairingEngineTests.b

    /// A's link: before each bootstrapping request reaches the peer, a rejection "from the peer" with its
    /// dialog token reaches A.
    struct RejectedFirstLink: PairingLink {
        let air: Air
        let source: MACAddress
        private var plain: PairingEngineTests.Link { PairingEngineTests.Link(air: air, source: source) }
        func send(authentication frame: [UInt8]) async throws { try await plain.send(authentication: frame) }
        func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws {
            try await plain.send(keyDescriptor: keyDescriptor, to: peer)
        }
        func send(bootstrapping: PairingBootstrappingAttribute, to peer: MACAddress) async throws {
            if bootstrapping.type == .request {
                let forged = PairingBootstrappingAttribute(
                    dialogToken: bootstrapping.dialogToken, type: .response, status: .rejected,
                    reasonCode: NANReasonCode(rawValue: 13), methods: bootstrapping.methods)
                await air.deliver(forged, from: peer, to: source)
            }
            await air.deliver(bootstrapping, from: source, to: peer)
        }
    }

    @Test func aForgedRejectionGivesWayToThePeersAcceptance() async throws {
        let air = Air()
        let engineA = PairingEngine(
            localAddress: Self.a, cluster: PairingEngineTests.cluster, identity: try .random(),
            link: RejectedFirstLink(air: air, source: Self.a))
        await air.attach(engineA)
        let engineB = try await PairingEngineTests.engine(Self.b, on: air)
        await engineB.setBootstrapping(supported: .opportunistic, autoAccept: .opportunistic)
        let method = try await engineA.bootstrap(
            with: Self.b, localMethods: .opportunistic, peerMethods: .opportunistic)
        #expect(method == .opportunistic)
    }

    @Test func aRejectionWithNothingAfterItEndsTheBootstrapping() async throws {
        let air = Air()
        let engineA = PairingEngine(
            localAddress: Self.a, cluster: PairingEngineTests.cluster, identity: try .random(),
            link: RejectedFirstLink(air: air, source: Self.a))
        await air.attach(engineA)
        _ = try await PairingEngineTests.engine(Self.b, on: air)  // supports no method: rejects as well
        let started = ContinuousClock.now
        let code = await PairingEngineTests.failure {
            _ = try await engineA.bootstrap(with: Self.b, localMethods: .opportunistic, peerMethods: .opportunistic)
        }
        #expect(code == .rejected)
        #expect(ContinuousClock.now - started >= PairingEngine.bootstrapRejectionGrace)
    }
}
