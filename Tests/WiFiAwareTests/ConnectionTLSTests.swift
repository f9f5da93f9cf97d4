import Foundation
import NANCrypto
import NANSystem
import NANWire
import Testing

@testable import WiFiAware

/// Connections under mutual TLS over loopback TCP (no radio): the default transport, the peer's certificate
/// pinned to its paired device (learned over a data path keyed by the pairing), trust on first use only when
/// asked, the application's validator, de-duplication and a cut transfer under TLS.
@Suite struct ConnectionTLSTests {
    static let identityA = try! TLSIdentity.generate(commonName: "A")
    static let identityB = try! TLSIdentity.generate(commonName: "B")
    static let peerA = WAPeerIdentifier(bytes: Array(1...16))
    static let peerB = WAPeerIdentifier(bytes: Array(101...116))
    static let npk = try! WAPairedDevice.PairingKey(bytes: [UInt8](repeating: 0x5a, count: 32), method: .sae)

    /// One end of a test connection.
    struct End: Sendable {
        var peer: WAPeerIdentifier
        var tls: ConnectionTLS?
        var device: WAPairedDevice? = nil
    }

    static func dataPath(_ cipherSuite: WACipherSuite?) -> WADataPathConnection {
        WADataPathConnection(
            peer: testAddress(7), ndpID: 1, interfaceName: "lo",
            localInterfaceAddress: testAddress(8), peerInterfaceAddress: testAddress(9),
            localAddress: .loopback, peerAddress: .loopback, cipherSuite: cipherSuite, peerServiceInfo: [])
    }

    /// Connects `client` to `server` over loopback; each side's outcome.
    static func connect(
        _ client: End, _ server: End, cipherSuite: WACipherSuite? = .ncsPKPASN128
    )
        async throws -> (client: Result<WAConnection, WAError>, server: Result<WAConnection, WAError>)
    {
        let parameters = { () -> WAConnectionParameters in
            var parameters = WAConnectionParameters(dataPathSecurity: .open)
            parameters.setupTimeout = .seconds(20)
            return parameters
        }()
        let listener = try StreamSocket.listen()
        async let accepted = listener.accept()
        let clientSocket = try await StreamSocket.connect(
            to: LinkLocalEndpoint(address: .loopback, interface: "lo", port: listener.localPort),
            timeout: .seconds(10))
        let serverSocket = try await accepted
        let path = dataPath(cipherSuite)
        async let serverSide = outcome(socket: serverSocket) { () async throws(WAError) in
            try await ConnectionSetup.establish(
                socket: serverSocket, isInitiator: false, parameters: parameters, localPeer: server.peer,
                peerAddress: path.peer, device: server.device, dataPath: path, tls: server.tls)
        }
        let clientSide = await outcome(socket: clientSocket) { () async throws(WAError) in
            try await ConnectionSetup.establish(
                socket: clientSocket, isInitiator: true, parameters: parameters, localPeer: client.peer,
                peerAddress: path.peer, device: client.device, dataPath: path, tls: client.tls)
        }
        return (clientSide, await serverSide)
    }

    static func outcome(
        socket: StreamSocket, _ body: () async throws(WAError) -> WAConnection
    ) async -> Result<WAConnection, WAError> {
        do throws(WAError) { return .success(try await body()) } catch {
            socket.cancel()
            return .failure(error)
        }
    }

    static func failure(_ result: Result<WAConnection, WAError>) -> WAError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// Two stores in `folder` where A and B are paired with each other: (A's store, B in it, B's store, A in it).
    static func pairedStores(in folder: URL) throws -> (WADeviceStore, WAPairedDevice, WADeviceStore, WAPairedDevice) {
        let storeA = WADeviceStore(url: folder.appendingPathComponent("a/devices.json"))
        let storeB = WADeviceStore(url: folder.appendingPathComponent("b/devices.json"))
        let b = try storeA.recordPairing(
            name: "B", managementAddress: testAddress(7), identityKey: nil, pairingKey: npk)
        let a = try storeB.recordPairing(
            name: "A", managementAddress: testAddress(7), identityKey: nil, pairingKey: npk)
        return (storeA, b, storeB, a)
    }

    @Test func tlsWithPairedDevicesIsTheDefault() {
        let parameters = WAConnectionParameters(dataPathSecurity: .pairing)
        #expect(!parameters.transport.isPlain)
        #expect(parameters.transport.description == "TLS 1.3")
        #expect(!parameters.trust.trustsOnFirstUse)
        #expect(parameters.identityFile == nil)
    }

    @Test func aPairedDeviceIsLearnedOverItsPairingThenPinnedAndAnotherCertificateIsRefusedOnBothSides() async throws {
        try await withTemporaryDirectory { folder in
            let (storeA, b, storeB, a) = try Self.pairedStores(in: folder)
            let first = try await Self.connect(
                End(
                    peer: Self.peerB,
                    tls: ConnectionTLS(identity: Self.identityB, trust: .pairedDevices, store: storeB), device: a),
                End(
                    peer: Self.peerA,
                    tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevices, store: storeA), device: b))
            let client = try first.client.get(), server = try first.server.get()
            #expect(client.trustBasis == .learnedOverPairing && server.trustBasis == .learnedOverPairing)
            #expect(client.transportDescription == "TLS 1.3")
            #expect(client.peerCertificate?.fingerprint.bytes == Self.identityA.fingerprint.bytes)
            #expect(try storeA.devices()[b.id]?.certificateFingerprint?.bytes == Self.identityB.fingerprint.bytes)
            #expect(try storeB.devices()[a.id]?.certificateFingerprint?.bytes == Self.identityA.fingerprint.bytes)
            #expect(server.device?.certificateFingerprint != nil)
            try await client.send(Array("ping".utf8))
            #expect(try await server.receive() == .message(Array("ping".utf8)))
            try await server.send(Array("pong".utf8))
            #expect(try await client.receive() == .message(Array("pong".utf8)))
            await client.finishSending()
            #expect(try await server.receive() == nil)

            // Pinned now: the same certificates again are trusted as pinned, even over a passphrase data path.
            let pinnedA = try #require(try storeB.devices()[a.id]), pinnedB = try #require(try storeA.devices()[b.id])
            let again = try await Self.connect(
                End(
                    peer: Self.peerB,
                    tls: ConnectionTLS(identity: Self.identityB, trust: .pairedDevices, store: storeB), device: pinnedA),
                End(
                    peer: Self.peerA,
                    tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevices, store: storeA), device: pinnedB),
                cipherSuite: .ncsSK128)
            #expect(try again.client.get().trustBasis == .pinned && again.server.get().trustBasis == .pinned)

            // B's identity replaced: A refuses it, and B hears that A refused it, even over the paired data path.
            let replaced = try TLSIdentity.generate(commonName: "B again")
            let refused = try await Self.connect(
                End(
                    peer: Self.peerB, tls: ConnectionTLS(identity: replaced, trust: .pairedDevices, store: storeB),
                    device: pinnedA),
                End(
                    peer: Self.peerA,
                    tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevices, store: storeA), device: pinnedB)
            )
            let atA = try #require(Self.failure(refused.server)), atB = try #require(Self.failure(refused.client))
            #expect(atA.code == .connectionFailed && atA.message.contains("not the one pinned to it"))
            #expect(atA.message.contains(replaced.fingerprint.description))
            #expect(atB.code == .connectionFailed && atB.message.contains("refused our certificate"))
            #expect(try storeA.devices()[b.id]?.certificateFingerprint?.bytes == Self.identityB.fingerprint.bytes)
        }
    }

    @Test func anUnpairedPeerIsRefusedUnlessTrustOnFirstUseWasAsked() async throws {
        let refused = try await Self.connect(
            End(peer: Self.peerB, tls: ConnectionTLS(identity: Self.identityB, trust: .pairedDevices, store: nil)),
            End(peer: Self.peerA, tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevices, store: nil)),
            cipherSuite: nil)
        let atB = try #require(Self.failure(refused.client)), atA = try #require(Self.failure(refused.server))
        #expect(atB.message.contains("is not a paired device") && atB.message.contains("--tofu"))
        #expect(atA.code == .connectionFailed)

        let tofu = try await Self.connect(
            End(
                peer: Self.peerB,
                tls: ConnectionTLS(identity: Self.identityB, trust: .pairedDevicesOrFirstUse, store: nil)),
            End(
                peer: Self.peerA,
                tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevicesOrFirstUse, store: nil)),
            cipherSuite: nil)
        #expect(try tofu.client.get().trustBasis == .firstUse && tofu.server.get().trustBasis == .firstUse)
        #expect(try tofu.server.get().peerCertificate?.commonName == "B")
    }

    @Test func aPairedDeviceWithoutAPinIsLearnedOnlyOverItsPairing() throws {
        let certificate = WAPeerCertificate(Self.identityB.certificate)
        var device = WAPairedDevice(
            id: .init(UUID()), displayName: "B", pairingInfo: nil, managementAddresses: [testAddress(7)],
            identityKey: nil, dateAdded: Date(), pairingKey: Self.npk)
        let strict = WAConnectionTrust.pairedDevices, tofu = WAConnectionTrust.pairedDevicesOrFirstUse
        #expect(
            strict.verdict(on: certificate, from: device, peer: testAddress(7), dataPathKeyedByPairing: true)
                == .learn(.learnedOverPairing))
        guard
            case .refused(let reason) = strict.verdict(
                on: certificate, from: device, peer: testAddress(7), dataPathKeyedByPairing: false)
        else {
            Issue.record("learned over a passphrase data path")
            return
        }
        #expect(reason.contains("no certificate pinned yet"))
        // An address is the peer's own say: trusted as any unpaired peer, nothing pinned to the device.
        #expect(
            tofu.verdict(on: certificate, from: device, peer: testAddress(7), dataPathKeyedByPairing: false)
                == .trusted(.firstUse))
        device.certificateFingerprint = WACertificateFingerprint(bytes: Self.identityA.fingerprint.bytes)
        // A pin wins over trust on first use.
        guard
            case .refused = tofu.verdict(
                on: certificate, from: device, peer: testAddress(7), dataPathKeyedByPairing: true)
        else {
            Issue.record("a pinned device accepted another certificate")
            return
        }
    }

    /// A peer at a paired device's address, over a data path keyed by a passphrase, with `--tofu` on both sides:
    /// it connects as an unpaired peer would. Nothing is pinned to the device whose address it used, and the
    /// connection is not that device's, so the device's real certificate is still learned over its pairing.
    @Test func trustOnFirstUseAtAPairedDevicesAddressPinsNothingAndNamesNoDevice() async throws {
        try await withTemporaryDirectory { folder in
            let (storeA, b, storeB, a) = try Self.pairedStores(in: folder)
            let impostor = try TLSIdentity.generate(commonName: "not B")
            let result = try await Self.connect(
                End(
                    peer: Self.peerB,
                    tls: ConnectionTLS(identity: impostor, trust: .pairedDevicesOrFirstUse, store: storeB), device: a),
                End(
                    peer: Self.peerA,
                    tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevicesOrFirstUse, store: storeA),
                    device: b),
                cipherSuite: .ncsSK128)
            let server = try result.server.get()
            #expect(server.trustBasis == .firstUse && server.device == nil)
            #expect(try storeA.devices()[b.id]?.certificateFingerprint == nil)
            server.cancel()
            try result.client.get().cancel()
        }
    }

    @Test func theApplicationsValidatorDecides() async throws {
        let refusing = WAConnectionTrust.custom { certificate, _ in certificate.commonName == "nobody" }
        let accepting = WAConnectionTrust.custom { certificate, device in device == nil && certificate.commonName == "A"
        }
        let refused = try await Self.connect(
            End(peer: Self.peerB, tls: ConnectionTLS(identity: Self.identityB, trust: refusing, store: nil)),
            End(
                peer: Self.peerA,
                tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevicesOrFirstUse, store: nil)))
        #expect(try #require(Self.failure(refused.client)).message.contains("validator refused"))
        let accepted = try await Self.connect(
            End(peer: Self.peerB, tls: ConnectionTLS(identity: Self.identityB, trust: accepting, store: nil)),
            End(
                peer: Self.peerA,
                tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevicesOrFirstUse, store: nil)))
        #expect(try accepted.client.get().trustBasis == .validator)
    }

    @Test func plainAgainstTLSFailsWithAHint() async throws {
        let outcome = try await Self.connect(
            End(peer: Self.peerB, tls: nil),
            End(
                peer: Self.peerA,
                tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevicesOrFirstUse, store: nil)))
        #expect(try #require(Self.failure(outcome.server)).message.contains("--plain"))
        #expect(Self.failure(outcome.client) != nil)
    }

    @Test func aTransferCutUnderTLSSaysSoAndLeavesNoFile() async throws {
        try await withTemporaryDirectory { folder in
            let outcome = try await Self.connect(
                End(
                    peer: Self.peerB,
                    tls: ConnectionTLS(identity: Self.identityB, trust: .pairedDevicesOrFirstUse, store: nil)),
                End(
                    peer: Self.peerA,
                    tls: ConnectionTLS(identity: Self.identityA, trust: .pairedDevicesOrFirstUse, store: nil)))
            let client = try outcome.client.get(), server = try outcome.server.get()
            try await client.sendFrame(
                ConnectionFrame(kind: .resourceBegin, payload: WAResourceOffer(name: "big.bin", size: 100_000).encoded))
            try await client.sendFrame(
                ConnectionFrame(kind: .resourceData, payload: [UInt8](repeating: 1, count: 4000)))
            client.cancel()  // no close_notify: as if the sender was killed
            guard case .resource(let offer) = try await server.receive() else { Issue.record("no resource"); return }
            let path = folder.appendingPathComponent("big.bin").path
            do throws(WAError) {
                try await server.receiveResource(offer, to: path)
                Issue.record("a cut transfer was accepted")
            } catch {
                #expect(error.code == .connectionTerminated)
                #expect(error.message.contains("was cut after 4000 of 100000 bytes"))
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        }
    }

    @Test func bothSidesConnectingAtOnceEndWithTheSameSingleConnection() async throws {
        let trust = WAConnectionTrust.pairedDevicesOrFirstUse
        let a = End(peer: Self.peerA, tls: ConnectionTLS(identity: Self.identityA, trust: trust, store: nil))
        let b = End(peer: Self.peerB, tls: ConnectionTLS(identity: Self.identityB, trust: trust, store: nil))
        let fromA = try await Self.connect(a, b)  // A made it
        let fromB = try await Self.connect(b, a)  // B made it
        let registryA = ConnectionRegistry(), registryB = ConnectionRegistry()
        let aMade = try fromA.client.get(), bAccepted = try fromA.server.get()
        let bMade = try fromB.client.get(), aAccepted = try fromB.server.get()
        async let a1 = registryA.register(aMade)
        async let b1 = registryB.register(bMade)
        let (aMadeSurvives, bMadeSurvives) = await (a1, b1)
        async let a2 = registryA.register(aAccepted)
        async let b2 = registryB.register(bAccepted)
        let (aAcceptedSurvives, bAcceptedSurvives) = await (a2, b2)
        // A's identifier is the smaller: the connection A made survives, on both sides (TN3213's rule).
        #expect(Self.peerA < Self.peerB)
        #expect(aMadeSurvives && bAcceptedSurvives)
        #expect(!aAcceptedSurvives)
        _ = bMadeSurvives
        #expect(bMade.currentState.isFinal && aAccepted.currentState.isFinal)
        #expect(!aMade.currentState.isFinal && !bAccepted.currentState.isFinal)
        try await aMade.send(Array("one".utf8))
        #expect(try await bAccepted.receive() == .message(Array("one".utf8)))
    }

    @Test func aPinIsStoredInTheDeviceEntryAndANewPairingForgetsIt() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            let store = WADeviceStore(url: url)
            let nik = try WAPairedDevice.IdentityKey(bytes: [UInt8](repeating: 0x22, count: 16))
            let device = try store.recordPairing(
                name: "B", managementAddress: testAddress(7), identityKey: nik, pairingKey: Self.npk)
            let pin = try #require(WACertificateFingerprint(bytes: Self.identityB.fingerprint.bytes))
            try store.pinCertificate(pin, to: device.id)
            try store.pinCertificate(pin, to: device.id)  // the same again: fine
            #expect(throws: WAError.self) {
                try store.pinCertificate(
                    WACertificateFingerprint(bytes: Self.identityA.fingerprint.bytes)!, to: device.id)
            }
            #expect(try WADeviceStore(url: url).devices()[device.id]?.certificateFingerprint == pin)
            #expect(try String(contentsOf: url, encoding: .utf8).contains("certificateFingerprint"))
            #expect(try String(contentsOf: url, encoding: .utf8).contains(pin.description))
            // The same identity.
            try store.recordPairing(
                name: "B", managementAddress: testAddress(7), identityKey: nik, pairingKey: Self.npk)
            #expect(try store.devices()[device.id]?.certificateFingerprint == nil)
        }
    }

    @Test func theIdentityIsMadeOnFirstUseNextToTheStoreWithMode0600() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("state/devices.json"))
            let first = try WAPeerCertificate.local(for: store)
            #expect(try WAPeerCertificate.local(for: store) == first)
            let file = folder.appendingPathComponent("state/tls-identity.pem")
            #expect(try permissions(of: file) == 0o600)
            let other = try WAPeerCertificate.local(
                for: store, identityFile: folder.appendingPathComponent("elsewhere.pem").path)
            #expect(other.fingerprint != first.fingerprint)
        }
    }
}
