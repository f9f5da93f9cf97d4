import Foundation
@testable import NANEngine
import NANWire
import Testing

/// wpa_supplicant 2.12's own pairing frames, as it handed them to the kernel in the VM's interop-pairing scenario
/// (Fixtures/wpa_supplicant-2.12/captured, README there): bootstrapping, PASN frames 1 and 2 of each kind, the
/// NIK follow-ups. Our decoders and our responder take them as they are.
@Suite struct WPASupplicantCapturedTests {
    static let folder = WPASupplicantFixtures.folder.appendingPathComponent("captured")
    /// wpa_supplicant's NMI in the scenario, and the NIK the scenario gave it (NAN_SET nik).
    static let wpa = MACAddress(0x42, 0, 0, 0, 1, 0)
    static let wpaNIK = NANIdentityKey(bytes: hexBytes("00112233445566778899aabbccddeeff"))!

    static func bytes(_ name: String) throws -> [UInt8] {
        hexBytes(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
    }

    static func pasn(_ name: String) throws -> PASNManagementFrame { try PASNManagementFrame(bytes: try bytes(name)) }

    static func announcement(_ name: String) throws -> (IncomingDiscoveryFrame, ServiceAnnouncement) {
        let frame = try WireCodec().decode(try bytes(name))
        guard frame.announcements.count == 1, let item = frame.announcements.first else {
            throw PairingError(.malformed, "\(name): \(frame.announcements.count) announcements")
        }
        return (frame, item)
    }

    // MARK: Bootstrapping

    @Test(arguments: [
        (
            "bootstrap-request-pin-keypad.hex", PairingBootstrappingAttribute.BootstrappingType.request,
            PairingBootstrappingAttribute.Status.accepted,
            PairingBootstrappingAttribute.Methods.pinKeypad, false
        ),
        ("bootstrap-request-pin-keypad-comeback.hex", .request, .comeback, .pinKeypad, true),
        ("bootstrap-request-opportunistic.hex", .request, .accepted, .opportunistic, false),
        ("bootstrap-response-comeback.hex", .response, .comeback, PairingBootstrappingAttribute.Methods(), true),
        ("bootstrap-response-accepted-pin-display.hex", .response, .accepted, .pinDisplay, false),
    ])
    func itsBootstrappingFollowUpsReadAsTheSourceSaid(
        name: String, type: PairingBootstrappingAttribute.BootstrappingType,
        status: PairingBootstrappingAttribute.Status,
        methods: PairingBootstrappingAttribute.Methods, cookie: Bool
    ) throws {
        // docs/interop-pairing-findings.md §1: the requester's own method, the responder's own on acceptance,
        // none with a comeback; a comeback request carries the cookie, a comeback response the delay too.
        let (frame, item) = try Self.announcement(name)
        #expect(frame.source == Self.wpa && item.kind == .followUp && !item.isProtected)
        let npba = try #require(item.bootstrapping)
        #expect(npba.type == type && npba.status == status && npba.methods == methods)
        #expect((npba.comeback?.cookie.count == 4) == cookie)
        if type == .response, status == .comeback { #expect(npba.comeback?.after == 1024) }
    }

    @Test func itsKeypadRequestIsToldToComeBackAndItsComebackAccepted() throws {
        let (_, first) = try Self.announcement("bootstrap-request-pin-keypad.hex")
        let (_, again) = try Self.announcement("bootstrap-request-pin-keypad-comeback.hex")
        let request = try #require(first.bootstrapping)
        var responder = BootstrappingResponder(supported: .pinDisplay)
        let comeback = try responder.receive(request, from: Self.wpa, at: .now)
        #expect(comeback.status == .comeback)
        // Its comeback carries the cookie we gave it in the run, not this one: matched by cookie, it is ignored
        // here; with ours put in, it is accepted once our user authorized.
        var repeated = try #require(again.bootstrapping)
        #expect(repeated.dialogToken == request.dialogToken)
        repeated.comeback?.cookie = try #require(comeback.comeback?.cookie)
        let authorized = responder.authorize(Self.wpa)
        #expect(authorized)
        let accepted = try responder.receive(repeated, from: Self.wpa, at: .now)
        #expect(accepted.status == .accepted && accepted.methods == .pinDisplay)
    }

    // MARK: PASN frame 1, answered by our responder

    @Test func itsSAEFrame1IsAnsweredWithThePIN() throws {
        // pin:peer in the run: `waware pair` showed 607606, wpa_supplicant's NAN_PAIR auth=1 password=607606.
        let frame = try Self.pasn("pasn-frame1-sae-ccmp.hex")
        #expect(frame.header.source == Self.wpa && frame.body.sequence == 1)
        var responder = PASNPairingResponder(
            own: frame.header.destination, peer: Self.wpa, publishID: InstanceID(1),
            policy: .init(password: Array("607606".utf8)))
        let frame2 = try responder.receive(frame1: frame.body)
        #expect(responder.suite == .pk128)
        #expect(
            frame2.elements.map(WPASupplicantPairingTests.label) == [
                "48", "255/8", "244", "255/100", "221", "255/161", "140",
            ])
        #expect(responder.temporalKey?.count == 16)
    }

    @Test func itsOpportunisticFrame1IsAnswered() throws {
        let frame = try Self.pasn("pasn-frame1-opportunistic-ccmp.hex")
        var responder = PASNPairingResponder(
            own: frame.header.destination, peer: Self.wpa, publishID: InstanceID(1),
            policy: .init(allowsOpportunistic: true))
        let frame2 = try responder.receive(frame1: frame.body)
        #expect(frame2.elements.map(WPASupplicantPairingTests.label) == ["48", "255/100", "221", "255/161", "140"])
        // No password, no opportunistic: refused, nothing kept.
        var refusing = PASNPairingResponder(
            own: frame.header.destination, peer: Self.wpa, publishID: InstanceID(1), policy: .init())
        #expect(throws: PairingError.self) { _ = try refusing.receive(frame1: frame.body) }
        #expect(refusing.temporalKey == nil)
    }

    @Test func itsVerificationFrame1IsResolvedByItsNIRAAndAnsweredWithTheCachedKey() throws {
        // verify:peer in the run: NAN_PAIR auth=2 cipher=GCMP-256 toward `waware pair` (a new NMI); the NPK is the
        // one that run's pin:waware stored (README).
        let frame = try Self.pasn("pasn-frame1-verification-gcmp256.hex")
        let attributes = PASNPairingElements.nanAttributes(in: frame.body)
        let nira = try #require(try PASNPairingElements.attribute(IdentityResolutionAttribute.self, in: attributes))
        var resolver = IdentityResolver<String>()
        try resolver.add(Self.wpaNIK, for: "P")
        #expect(resolver.resolve(nira, from: Self.wpa) == "P")
        #expect(resolver.resolve(nira, from: frame.header.destination) == nil)  // the NMI is inside the tag
        let npk = hexBytes("412f6cbce420ed45d2eba631c381b5384cb3705b11cb9ae7dff1a1a720c7a1d5")
        let cached = try #require(CachedPairing(npk: npk, akm: .sae, suite: .pk256))
        var responder = PASNPairingResponder(
            own: frame.header.destination, peer: Self.wpa, publishID: InstanceID(1),
            policy: .init(identity: try .random(), suites: [.pk128]))
        let frame2 = try responder.receive(frame1: frame.body) { nira, transmitter in
            resolver.resolve(nira, from: transmitter) == "P" ? cached : nil
        }
        #expect(responder.suite == .pk256 && responder.temporalKey?.count == 32)
        #expect(
            frame2.elements.map(WPASupplicantPairingTests.label) == ["48", "244", "255/100", "221", "255/161", "140"])
    }

    // MARK: PASN frame 2, laid out as ours

    @Test(arguments: [
        (
            "pasn-frame2-sae-gcmp256.hex", ["48", "255/8", "244", "255/100", "221", "255/161", "140"],
            NDPCipherSuite.pk256
        ),
        ("pasn-frame2-opportunistic-ccmp.hex", ["48", "255/100", "221", "255/161", "140"], .pk128),
        ("pasn-frame2-verification-ccmp.hex", ["48", "244", "255/100", "221", "255/161", "140"], .pk128),
    ])
    func itsFrame2sHaveOurElementOrder(name: String, labels: [String], suite: NDPCipherSuite) throws {
        let frame = try Self.pasn(name)
        #expect(frame.header.source == Self.wpa && frame.body.sequence == 2 && frame.body.status == 0)
        #expect(frame.body.elements.map(WPASupplicantPairingTests.label) == labels)
        let attributes = PASNPairingElements.nanAttributes(in: frame.body)
        let csia = try #require(try PASNPairingElements.attribute(CipherSuiteInfoAttribute.self, in: attributes))
        #expect(csia.entries.first.flatMap { NDPCipherSuite($0.suite) } == suite)
        // The MIC is 16 bytes (SHA-256 PASN) in all three: SAE and a verification of an SAE pairing hash with
        // SAE's SHA-256, and opportunistic on CCMP with SHA-256 too.
        #expect(frame.body.elements.last?.body.count == 16)
        if let nira = try PASNPairingElements.attribute(IdentityResolutionAttribute.self, in: attributes) {
            // A verification's frame 2 names wpa_supplicant by its NIRA: our initiator checks it with its NIK.
            #expect(try Self.wpaNIK.tag(nmi: Self.wpa, nonce: Array(nira.nonce)) == Array(nira.tag))
        }
    }

    // MARK: NIK follow-ups

    @Test(arguments: [("nik-followup-ccmp.hex", 16), ("nik-followup-gcmp256.hex", 32)])
    func itsNIKFollowUpsAreProtectedSDFsWithTheSuitesKeyLength(name: String, keyLength: Int) throws {
        let (frame, item) = try Self.announcement(name)
        #expect(frame.source == Self.wpa && item.kind == .followUp && item.isProtected)
        let descriptor = try #require(item.keyDescriptor)
        #expect(Array(descriptor.keyDescriptor.dropFirst(3).prefix(2)) == [0, UInt8(keyLength)])
        #expect(try NIKKeyDescriptor.wrappedKeyData(of: descriptor).count == 48)
    }
}
