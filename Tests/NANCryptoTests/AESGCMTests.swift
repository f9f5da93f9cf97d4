@testable import NANCrypto
import Testing

/// AES-GCM through libcrypto: the published test vectors (McGrew and Viega's GCM spec, test cases 1, 2,
/// 13 and 14), then what a datagram opener relies on: tampering, another key or nonce, another header.
@Suite struct AESGCMTests {
    @Test(arguments: [
        (16, "", "58e2fccefa7e3061367f1d57a4e7455a"),
        (16, "00000000000000000000000000000000", "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf"),
        (32, "", "530f8afbc74536b9a963b4f1c4cb738b"),
        (32, "00000000000000000000000000000000", "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919"),
    ])
    func sealsThePublishedTestVectors(keySize: Int, plaintext: String, sealed: String) throws {
        let gcm = try AESGCM(key: [UInt8](repeating: 0, count: keySize))
        let nonce = [UInt8](repeating: 0, count: 12)
        #expect(try gcm.seal(hex(plaintext), nonce: nonce) == hex(sealed))
        #expect(try gcm.open(hex(sealed), nonce: nonce) == hex(plaintext))
    }

    @Test func opensWhatItSealedWithTheSameHeaderOnly() throws {
        let gcm = try AESGCM(key: Array(0..<32))
        let nonce = Array(UInt8(1)...12)
        let sealed = try gcm.seal(Array("datagram".utf8), nonce: nonce, authenticating: [0xD1, 0, 0, 0, 0, 0, 0, 0, 7])
        #expect(sealed.count == 8 + AESGCM.tagSize)
        #expect(
            try gcm.open(sealed, nonce: nonce, authenticating: [0xD1, 0, 0, 0, 0, 0, 0, 0, 7]) == Array("datagram".utf8)
        )
        #expect(throws: CryptoError.self) {
            try gcm.open(sealed, nonce: nonce, authenticating: [0xD1, 0, 0, 0, 0, 0, 0, 0, 8])
        }
    }

    @Test func aFlippedBitAnotherKeyOrAnotherNonceFailTheIntegrityCheck() throws {
        let gcm = try AESGCM(key: Array(0..<32))
        let nonce = [UInt8](repeating: 9, count: 12)
        let sealed = try gcm.seal(Array("hello".utf8), nonce: nonce)
        var flipped = sealed
        flipped[2] ^= 1
        for (key, n, bytes) in [
            (Array(UInt8(0)..<32), nonce, flipped), (Array(UInt8(1)...32), nonce, sealed),
            (Array(UInt8(0)..<32), [UInt8](repeating: 8, count: 12), sealed),
        ] {
            do {
                _ = try AESGCM(key: key).open(bytes, nonce: n)
                Issue.record("opened a datagram it should have refused")
            } catch {
                #expect(error.code == .integrityCheckFailed)
            }
        }
    }

    @Test func badLengthsAreTypedErrors() throws {
        #expect(throws: CryptoError.self) { try AESGCM(key: [1, 2, 3]) }
        let gcm = try AESGCM(key: [UInt8](repeating: 1, count: 16))
        #expect(throws: CryptoError.self) { try gcm.seal([1], nonce: [1, 2]) }
        #expect(throws: CryptoError.self) { try gcm.open([1, 2, 3], nonce: [UInt8](repeating: 0, count: 12)) }
    }
}
