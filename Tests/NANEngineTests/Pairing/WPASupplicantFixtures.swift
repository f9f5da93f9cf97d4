import Foundation
@testable import NANEngine
import NANWire

/// What the wpa_supplicant 2.12 pairing tests share: the fixtures (Fixtures/wpa_supplicant-2.12, laid out
/// from hostap's source, README there), the two NMIs they use, and a link that records what an engine does.
enum WPASupplicantFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/wpa_supplicant-2.12")
    /// waware's NMI (A1 of every fixture) and wpa_supplicant's (A2).
    static let waware = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
    static let wpa = MACAddress(0x42, 0, 0, 0, 1, 0)
    /// The NIK the NIK fixtures carry.
    static let nik = NANIdentityKey(bytes: Array(0xa0...0xaf))!

    static func frame(_ name: String) throws -> [UInt8] {
        hexBytes(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
    }

    /// The one announcement of a fixture, decoded by the discovery engine's codec.
    static func announcement(_ name: String) throws -> (IncomingDiscoveryFrame, ServiceAnnouncement) {
        let frame = try WireCodec().decode(try frame(name))
        guard frame.announcements.count == 1, let item = frame.announcements.first else {
            throw PairingError(.malformed, "\(name): \(frame.announcements.count) announcements")
        }
        return (frame, item)
    }
}

/// A pairing link that records what an engine does, in order: Authentication frames, NM-TK installs and
/// NIK follow-ups; with an air it also delivers them.
actor RecordingLink: PairingLink {
    struct Entry: Sendable {
        var kind: String
        var peer: MACAddress?
        var tk: [UInt8] = []
        var descriptor: SharedKeyDescriptorAttribute?
        var at = ContinuousClock.now
    }
    let air: PairingEngineTests.LoopbackAir?
    let source: MACAddress
    var log: [Entry] = []
    var bootstrapping: [(peer: MACAddress, attribute: PairingBootstrappingAttribute)] = []

    init(air: PairingEngineTests.LoopbackAir? = nil, source: MACAddress = MACAddress(0x02, 0, 0, 0, 0, 1)) {
        self.air = air; self.source = source
    }

    func send(authentication frame: [UInt8]) async throws {
        log.append(Entry(kind: "auth", peer: nil))
        frames.append(frame)
        await air?.deliver(authentication: frame)
    }
    /// NIK follow-ups recorded but not delivered, as a peer without the NM-TK yet drops them.
    var droppedNIKs = 0
    func dropNIKs(_ count: Int) { droppedNIKs = count }

    func send(keyDescriptor: SharedKeyDescriptorAttribute, to peer: MACAddress) async throws {
        log.append(Entry(kind: "nik", peer: peer, descriptor: keyDescriptor))
        if droppedNIKs > 0 {
            droppedNIKs -= 1
            return
        }
        await air?.deliver(keyDescriptor, from: source, to: peer)
    }
    func send(bootstrapping attribute: PairingBootstrappingAttribute, to peer: MACAddress) async throws {
        bootstrapping.append((peer, attribute))
        await air?.deliver(attribute, from: source, to: peer)
    }
    func protect(_ peer: MACAddress, temporalKey: [UInt8], suite: NDPCipherSuite) async {
        log.append(Entry(kind: "protect", peer: peer, tk: temporalKey))
    }
    func prepareProtection(_ peer: MACAddress, temporalKey: [UInt8], suite: NDPCipherSuite) async {
        log.append(Entry(kind: "prepare", peer: peer, tk: temporalKey))
    }
    /// The Device Capability the link hands the engine for PASN frame 1 (nil: none).
    var capability: DeviceCapabilityAttribute?
    func setCapability(_ capability: DeviceCapabilityAttribute?) { self.capability = capability }
    func deviceCapability() async -> DeviceCapabilityAttribute? { capability }
    /// The Authentication frames sent, whole.
    var frames: [[UInt8]] = []
    func withdrawProtection(_ peer: MACAddress, temporalKey: [UInt8]) async {
        log.append(Entry(kind: "withdraw", peer: peer, tk: temporalKey))
    }
}
