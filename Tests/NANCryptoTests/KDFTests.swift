import NANCrypto
import Testing

/// The IEEE 802.11 KDF-Hash-Length (IEEE 802.11-2020 §12.7.1.6.2). Known answers: the NAN PTK vectors of
/// hostap's NAN crypto module tests (`nan_test_ptk`: key 00..07 four times, label "NAN Pairwise key
/// expansion", context 00:01:02:03:04:05 ‖ 10:11:12:13:14:15 ‖ 0x20..0x27 ×4 ‖ 0x30..0x37 ×4), 384 bits with
/// SHA-256 and 704 bits with SHA-384; end to end, the wpa_supplicant NCS-SK-128 handshake in NANEngineTests
/// (`WPASupplicantHandshakeTests`), whose MICs are keyed with a KCK this KDF derives.
@Suite struct KDFTests {
    static let key = [UInt8](repeating: 0x42, count: 32)
    static let ptkKey = Array(repeating: [0, 1, 2, 3, 4, 5, 6, 7] as [UInt8], count: 4).flatMap { $0 }
    static let ptkContext =
        hex("000102030405 101112131415")
        + Array(repeating: [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27] as [UInt8], count: 4).flatMap { $0 }
        + Array(repeating: [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37] as [UInt8], count: 4).flatMap { $0 }

    @Test func sha256KDFMatchesTheNANPTKVector() throws {
        let ptk = try IEEE80211KDF.derive(
            .sha256, key: Self.ptkKey, label: "NAN Pairwise key expansion", context: Self.ptkContext, length: 48)
        #expect(
            hexString(ptk) == "6740476f9cb4cdeefbc7ad2578d55eb2" + "e5c755bb4e4fd7bbdb19a5b36ccc77e3"
                + "e27ffc7ba2d6b244634a0cf209f8069a")
    }

    @Test func sha384KDFMatchesTheNANPTKVector() throws {
        let ptk = try IEEE80211KDF.derive(
            .sha384, key: Self.ptkKey, label: "NAN Pairwise key expansion", context: Self.ptkContext, length: 88)
        #expect(
            hexString(ptk) == "7270d5dc05448ab41a73e55156a0783a3374624e81e039f8"
                + "553e2c8a0babfce1f945fba7a6c90c7776646baac0597cd6a49931f26ebf0e49"
                + "446112ba4c258be529338f77455513876961f433ad8747bba1d65b4daf0a375a")
    }

    @Test func firstBlockIsHMACOverCounterLabelContextAndBitLength() throws {
        let context = hex("0102030405")
        // Counter 1 (LE16), "label", context, 128 bits (LE16 0x0080).
        let expected = try HMAC.sha256(key: Self.key, message: [0x01, 0x00] + ascii("label") + context + [0x80, 0x00])
        #expect(
            try IEEE80211KDF.derive(.sha256, key: Self.key, label: "label", context: context, length: 16)
                == Array(expected.prefix(16)))
    }

    @Test func longOutputsConcatenateCountedBlocks() throws {
        // 704 bits (NCS-SK-256's KCK 24 + KEK 32 + TK 32 bytes) with SHA-384: two blocks, counters 1 and 2.
        let length = 88
        let bits: [UInt8] = [UInt8((length * 8) & 0xFF), UInt8((length * 8) >> 8)]
        let first = try HMAC.sha384(key: Self.key, message: [0x01, 0x00] + ascii("L") + bits)
        let second = try HMAC.sha384(key: Self.key, message: [0x02, 0x00] + ascii("L") + bits)
        #expect(
            try IEEE80211KDF.derive(.sha384, key: Self.key, label: "L", context: [], length: length)
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
