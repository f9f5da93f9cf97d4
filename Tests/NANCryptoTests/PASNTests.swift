@testable import NANCrypto
import NANWire
import Testing

/// PASN's key schedule and its P-256 Diffie–Hellman. Known answers: IEEE Std 802.11-2024 Annex J.12 (PASN
/// test vectors: PMK, SPA, BSSID, DHss → KCK, TK, KDK), as hostap's `src/common/common_module_tests.c`
/// (`pasn_test_pasn_auth`) quotes them; RFC 5903 §8.1 (ECDH on the 256-bit random ECP group).
@Suite struct PASNTests {
    @Test func keyScheduleMatchesAnnexJ12() throws {
        let keys = try PASNKeyDerivation.keys(
            pmk: hex("def43e5567e01ca6649265f19a290eeff8bd888f6c1d9cc9d10f04bd378f3cad"),
            initiator: MACAddress(0x00, 0x90, 0x4c, 0x01, 0xc1, 0x07),
            responder: MACAddress(0xc0, 0xff, 0xd4, 0xa8, 0xdb, 0xc1),
            sharedSecret: hex("f87b208e7ed2b737afdbc2e13eae78da300123d4d84ba8b0eafe90c48cdf1f93"))
        #expect(hexString(keys.kck) == "7bb821ac0aa5909dd654a56065ad7c77eb889cbe2905bbf05abb1eeac88ba306")
        #expect(hexString(keys.tk) == "673eab46b832d5a80cbc0243016e207e")
        #expect(hexString(keys.kdk) == "2d0f0e82c70dd26b79061a4681e8dbb2ea83bea399844bd5894eb320f69d7dd6")
    }

    @Test func ecdhMatchesRFC5903() throws {
        let i = try ECEphemeralKey(privateKey: hex("c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433"))
        let r = try ECEphemeralKey(privateKey: hex("c6ef9c5d78ae012a011164acb397ce2088685d8f06bf9be0b283ab46476bee53"))
        #expect(hexString(i.publicX) == "dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180")
        #expect(hexString(r.publicX) == "d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63")
        let expected = "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de"
        #expect(hexString(try i.sharedSecret(peerPublicKey: r.compressedPublicKey)) == expected)
        #expect(hexString(try r.sharedSecret(peerPublicKey: [0x04] + i.publicX + i.publicY)) == expected)
    }

    @Test func ecdhRefusesMalformedOrOffCurveKeys() throws {
        let key = try ECEphemeralKey()
        #expect(throws: CryptoError.self) {
            try key.sharedSecret(peerPublicKey: [0x02] + [UInt8](repeating: 0, count: 31))
        }
        #expect(throws: CryptoError.self) { try key.sharedSecret(peerPublicKey: [0x05] + key.publicX) }
        #expect(throws: CryptoError.self) { try key.sharedSecret(peerPublicKey: [0x04] + key.publicX + key.publicX) }
    }

    @Test func micCoversAddressesDataAndFrame() throws {
        let kck = [UInt8](repeating: 7, count: 32)
        let a = MACAddress(2, 0, 0, 0, 0, 1), b = MACAddress(2, 0, 0, 0, 0, 2)
        let mic = try PASNKeyDerivation.mic(kck: kck, first: a, second: b, data: [1, 2], frame: [3])
        #expect(mic.count == 16)
        #expect(mic == Array(try HMAC.sha256(key: kck, message: a.bytes + b.bytes + [1, 2, 3]).prefix(16)))
        #expect(try PASNKeyDerivation.mic(kck: kck, first: b, second: a, data: [1, 2], frame: [3]) != mic)
    }
}
