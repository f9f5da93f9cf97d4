@testable import NANCrypto
import NANWire
import Testing

/// SAE on P-256. Known answers: IEEE Std 802.11-2020 Annex J.10 (SAE test vector), as quoted in hostap's
/// `src/common/common_module_tests.c` (`sae_tests`): the hunting-and-pecking commit with fixed rand and
/// mask, the KCK, PMK and PMKID after the peer's commit, and the hash-to-element PWE for group 19 (PT from
/// SSID "byteme", password "mekmitasdigoat", identifier "psk4internet", then PWE for 00:09:5b:66:ec:1e and
/// 00:0b:6b:d9:02:46). The confirm has no published vector here; it is checked between two sides.
@Suite struct SAETests {
    static let addr1 = MACAddress(0x4d, 0x3f, 0x2f, 0xff, 0xe3, 0x87)
    static let addr2 = MACAddress(0xa5, 0xd8, 0xaa, 0x95, 0x8e, 0x3c)
    static let password = ascii("mekmitasdigoat")
    static let rand = hex("992465fd3daa3c60aa6565b7f62a2a7f2e12dd12f198faf4fbed89d7ff1ace94")
    static let mask = hex("9507a90f777a044d6a0830b91ea3d5dd70bece44e1acffb86983b5e1bf9fb322")
    static let localCommit = hex(
        """
        13002e2c0f0db52440ad146d967114ce005ce1eab0aa2c2e5c2871b774f6c2575c65d5ad9e00829707aa36ba8b859738fc96
        1d08243505f47c035376d7ac4bc8d7b95083bf43827d0fc31ed778dd3671fd21a46d1091d64b6f9a1e1272621325dbe1
        """)
    static let peerCommit = hex(
        """
        1300591b96f3397fb945100848e7b550543b6720d88337ee93fc49fd6df7e08b5223e71b9bb048d3873f20556953a96c
        91536fd8ee6ca9b4a68a148b056a909be03e83ae208f60f8ef5537858074db06687032399862999b511e0a1552a5fea317c2
        """)

    @Test func hashToElementGivesTheAnnexJ10PasswordElement() throws {
        let pt = try SAEPasswordToken(password: Self.password, ssid: ascii("byteme"), identifier: ascii("psk4internet"))
        let pwe = try pt.passwordElement(
            MACAddress(0x00, 0x09, 0x5b, 0x66, 0xec, 0x1e), MACAddress(0x00, 0x0b, 0x6b, 0xd9, 0x02, 0x46))
        #expect(hexString(pwe.x) == "c93049b9e64000f848201649e999f2b5c22dea69b5632c9df4d633b8aa1f6c1e")
        #expect(hexString(pwe.y) == "73634e94b53d82e7383a8d258199d9dc1a5ee8269d060382ccbf33e614ff59a0")
    }

    @Test func passwordElementDoesNotDependOnAddressOrder() throws {
        let pt = try SAEPasswordToken(password: ascii("1234"))
        let a = try pt.passwordElement(Self.addr1, Self.addr2), b = try pt.passwordElement(Self.addr2, Self.addr1)
        #expect(a.x == b.x && a.y == b.y)
    }

    @Test func commitAndKeysMatchTheAnnexJ10Vector() throws {
        let pwe = try SAEPasswordElement.huntingAndPecking(password: Self.password, Self.addr1, Self.addr2)
        var sae = try SAEHandshake(element: pwe, rand: Self.rand, mask: Self.mask)
        #expect(hexString(sae.commit.encoded()) == hexString(Self.localCommit))
        let keys = try sae.receive(SAECommit.decode(Self.peerCommit).commit)
        #expect(hexString(keys.kck) == "1e733f6d9bd53256287304338831b09a39406d121017073a5c30db36f36cb81a")
        #expect(hexString(keys.pmk) == "4e4dfab1a2dd8ac1a91790f953faaa452ae5c6873ab75b63605ba663f8a7fe59")
        #expect(hexString(keys.pmkid) == "8747a600eea3f9f22475df58ca1e5498")
    }

    @Test func twoSidesAgreeAndConfirmEachOther() throws {
        let pt = try SAEPasswordToken(password: ascii("31415926"))
        let nmiA = MACAddress(0x02, 0, 0, 0, 0, 0x0a), nmiB = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
        var a = try SAEHandshake(element: pt.passwordElement(nmiA, nmiB))
        var b = try SAEHandshake(element: pt.passwordElement(nmiB, nmiA))
        let keysA = try a.receive(b.commit), keysB = try b.receive(a.commit)
        #expect(keysA.pmk == keysB.pmk && keysA.kck == keysB.kck && keysA.pmkid == keysB.pmkid)
        try b.verify(peerConfirm: a.confirm(sendConfirm: 1), peerSendConfirm: 1)
        try a.verify(peerConfirm: b.confirm(sendConfirm: 1), peerSendConfirm: 1)
        #expect(throws: CryptoError.self) { try a.verify(peerConfirm: b.confirm(sendConfirm: 1), peerSendConfirm: 2) }
    }

    @Test func wrongPasswordGivesDifferentKeysAndAFailingConfirm() throws {
        let nmiA = MACAddress(0x02, 0, 0, 0, 0, 0x0a), nmiB = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
        var a = try SAEHandshake(element: SAEPasswordToken(password: ascii("1111")).passwordElement(nmiA, nmiB))
        var b = try SAEHandshake(element: SAEPasswordToken(password: ascii("2222")).passwordElement(nmiB, nmiA))
        #expect(try a.receive(b.commit).pmk != b.receive(a.commit).pmk)
        #expect(throws: CryptoError.self) { try b.verify(peerConfirm: a.confirm(sendConfirm: 1), peerSendConfirm: 1) }
    }

    @Test func hostileCommitsAreRefusedAndLeaveTheStateUnchanged() throws {
        let pt = try SAEPasswordToken(password: ascii("31415926"))
        var a = try SAEHandshake(element: pt.passwordElement(Self.addr1, Self.addr2))
        let good = try SAEHandshake(element: pt.passwordElement(Self.addr2, Self.addr1)).commit
        let order = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        var bad: [SAECommit] = [
            a.commit,  // reflection
            SAECommit(scalar: [UInt8](repeating: 0, count: 31) + [1], element: good.element),  // scalar 1
            SAECommit(scalar: order, element: good.element),  // scalar r
            SAECommit(scalar: good.scalar, element: [UInt8](repeating: 0, count: 64)),  // not on the curve
            SAECommit(scalar: good.scalar, element: Array(good.element[0..<32]) + [UInt8](repeating: 0xff, count: 32)),
            SAECommit(group: 20, scalar: good.scalar, element: good.element),
            SAECommit(scalar: Array(good.scalar.dropLast()), element: good.element),
        ]
        bad.append(SAECommit(scalar: good.scalar, element: Array(good.element.dropFirst())))
        for commit in bad {
            #expect(throws: CryptoError.self) { try a.receive(commit) }
            #expect(a.keys == nil)
        }
        try a.receive(good)
        #expect(a.keys != nil)
        #expect(throws: CryptoError.self) { try a.receive(good) }
    }

    @Test func commitDecoderIsTotal() {
        for length in 0..<98 {
            #expect(throws: CryptoError.self) { _ = try SAECommit.decode(Self.localCommit.prefix(length)) }
        }
        #expect(throws: CryptoError.self) { _ = try SAECommit.decode([0x14, 0x00] + Self.localCommit.dropFirst(2)) }
        #expect((try? SAECommit.decode(Self.localCommit + [0xff, 1, 2]))?.trailing == [0xff, 1, 2])
    }

    @Test func secretsAreNotPrinted() throws {
        let pt = try SAEPasswordToken(password: ascii("secret"))
        #expect("\(pt)".contains("redacted"))
        #expect(!"\(try SAEHandshake(element: pt.passwordElement(Self.addr1, Self.addr2)))".contains("secret"))
    }
}
