import NANCrypto
import Testing

/// The IEEE 802.11 KDF-Hash-Length (IEEE 802.11-2020 §12.7.1.6.2). Its end-to-end known answer is the
/// wpa_supplicant NCS-SK-128 handshake (NANEngineTests' `WPASupplicantHandshakeTests`): the MICs there are
/// keyed with a KCK this KDF derives. Here: the structure the definition fixes.
@Suite struct KDFTests {
    static let key = [UInt8](repeating: 0x42, count: 32)

    @Test func firstBlockIsHMACOverCounterLabelContextAndBitLength() throws {
        let context = hex("0102030405")
        // Counter 1 (LE16), "label", context, 128 bits (LE16 0x0080).
        let expected = try HMAC.sha256(key: Self.key, message: [0x01, 0x00] + ascii("label") + context + [0x80, 0x00])
        #expect(try IEEE80211KDF.derive(.sha256, key: Self.key, label: "label", context: context, length: 16)
                == Array(expected.prefix(16)))
    }

    @Test func longOutputsConcatenateCountedBlocks() throws {
        // 704 bits (NCS-SK-256's KCK 24 + KEK 32 + TK 32 bytes) with SHA-384: two blocks, counters 1 and 2.
        let length = 88
        let bits: [UInt8] = [UInt8((length * 8) & 0xFF), UInt8((length * 8) >> 8)]
        let first = try HMAC.sha384(key: Self.key, message: [0x01, 0x00] + ascii("L") + bits)
        let second = try HMAC.sha384(key: Self.key, message: [0x02, 0x00] + ascii("L") + bits)
        #expect(try IEEE80211KDF.derive(.sha384, key: Self.key, label: "L", context: [], length: length)
                == Array((first + second).prefix(length)))
    }

    @Test func theLengthIsPartOfTheInput() throws {
        let short = try IEEE80211KDF.derive(.sha256, key: Self.key, label: "L", context: [], length: 16)
        let long = try IEEE80211KDF.derive(.sha256, key: Self.key, label: "L", context: [], length: 48)
        #expect(Array(long.prefix(16)) != short)
    }

    @Test func outOfRangeLengthsAreTypedErrors() {
        #expect((try? IEEE80211KDF.derive(.sha256, key: Self.key, label: "L", context: [], length: 0)) == nil)
        #expect((try? IEEE80211KDF.derive(.sha256, key: Self.key, label: "L", context: [], length: 8192)) == nil)
    }
}
