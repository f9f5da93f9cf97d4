import NANCrypto
import Testing

/// Known answers from RFC 3394 ("Advanced Encryption Standard (AES) Key Wrap Algorithm") §4.
@Suite struct AESKeyWrapTests {
    static let kek128 = hex("000102030405060708090A0B0C0D0E0F")
    static let kek192 = hex("000102030405060708090A0B0C0D0E0F1011121314151617")
    static let kek256 = hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F")
    static let data128 = hex("00112233445566778899AABBCCDDEEFF")
    static let data256 = hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F")

    static let vectors: [(String, [UInt8], [UInt8], String)] = [
        ("§4.1 128-bit data, 128-bit KEK", kek128, data128, "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"),
        ("§4.2 128-bit data, 192-bit KEK", kek192, data128, "96778b25ae6ca435f92b5b97c050aed2468ab8a17ad84e5d"),
        ("§4.3 128-bit data, 256-bit KEK", kek256, data128, "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7"),
        (
            "§4.6 256-bit data, 256-bit KEK", kek256, data256,
            "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21"
        ),
    ]

    @Test func wrapMatchesRFC3394() throws {
        for (name, kek, data, expected) in Self.vectors {
            #expect(hexString(try AESKeyWrap.wrap(data, kek: kek)) == expected, "\(name)")
        }
    }

    @Test func unwrapMatchesRFC3394() throws {
        for (name, kek, data, expected) in Self.vectors {
            #expect(try AESKeyWrap.unwrap(hex(expected), kek: kek) == data, "\(name)")
        }
    }

    @Test func alteredCiphertextFailsTheIntegrityCheck() throws {
        var wrapped = hex("1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5")
        wrapped[9] ^= 0x01
        let error = #expect(throws: CryptoError.self) { try AESKeyWrap.unwrap(wrapped, kek: Self.kek128) }
        #expect(error?.code == .integrityCheckFailed)
    }

    @Test func wrongKeyFailsTheIntegrityCheck() throws {
        var kek = Self.kek128
        kek[0] ^= 0x80
        let error = #expect(throws: CryptoError.self) {
            try AESKeyWrap.unwrap(hex("1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"), kek: kek)
        }
        #expect(error?.code == .integrityCheckFailed)
    }

    @Test func badLengthsAreTypedErrors() {
        #expect((try? AESKeyWrap.wrap(Self.data128, kek: [UInt8](repeating: 0, count: 15))) == nil)
        #expect((try? AESKeyWrap.wrap([UInt8](repeating: 0, count: 12), kek: Self.kek128)) == nil)
        #expect((try? AESKeyWrap.unwrap([UInt8](repeating: 0, count: 16), kek: Self.kek128)) == nil)
        #expect((try? AESKeyWrap.unwrap([UInt8](repeating: 0, count: 25), kek: Self.kek128)) == nil)
    }
}
