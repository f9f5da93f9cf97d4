@testable import NANEngine
import NANWire
import Testing

/// Known answers for the NCS-SK derivations:
/// - the PMK: Wi-Fi Aware Specification v4.0, Appendix M.1, Test Vector 1 (as quoted in hostap's
///   `src/nan` module tests);
/// - PMKID, PTK (SHA-256 and SHA-384 KDF), MIC and authentication token: the vectors of hostap's NAN crypto
///   module tests (`nan_test_crypto`), PMK 00..07 four times, addresses 00:01:02:03:04:05 and
///   10:11:12:13:14:15, nonces 0x20..0x27 and 0x30..0x37 repeated, service ID 48da63dcde19.
@Suite struct NDPKeyDerivationTests {
    static let pmk = try! NDPPairwiseMasterKey(
        bytes: Array(repeating: [0, 1, 2, 3, 4, 5, 6, 7], count: 4).flatMap { $0 })
    static let first = MACAddress("00:01:02:03:04:05")!
    static let second = MACAddress("10:11:12:13:14:15")!
    static let initiatorNonce = Array(repeating: [0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27] as [UInt8], count: 4)
        .flatMap { $0 }
    static let responderNonce = Array(repeating: [0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37] as [UInt8], count: 4)
        .flatMap { $0 }
    static let serviceID = ServiceID(hex: "48da63dcde19")!

    @Test func passphrasePMKMatchesWiFiAwareAppendixM1TestVector1() throws {
        let pmk = try NDPPairwiseMasterKey(
            passphrase: "NAN", suite: .sk128, serviceID: ServiceID(hex: "2b9c450f6671")!,
            publisherNMI: MACAddress("02:90:4c:12:d0:01")!)
        #expect(hexText(pmk.bytes) == "ee3585063056d164d15454ad39010d4e2640b0d82fb24a2d6899862d273c68bf")
    }

    /// The NCS-SK-256 passphrase PMK as our code derives it (PBKDF2-HMAC-SHA-384, 4096 iterations, 32 bytes,
    /// salt = cipher suite ID 2 as two bytes ‖ service ID ‖ publisher NMI), against a value computed
    /// independently with Python's hashlib (python3, this snippet as run):
    ///
    ///     import hashlib
    ///     salt = bytes([0x00, 0x02]) + bytes.fromhex("48da63dcde19") + bytes.fromhex("020000000100")
    ///     print(hashlib.pbkdf2_hmac("sha384", b"correct horse battery", salt, 4096, 32).hex())
    @Test func passphrasePMKForSK256MatchesAnIndependentComputationInPython() throws {
        let pmk = try NDPPairwiseMasterKey(
            passphrase: "correct horse battery", suite: .sk256, serviceID: Self.serviceID,
            publisherNMI: MACAddress("02:00:00:00:01:00")!)
        #expect(hexText(pmk.bytes) == "7ee8ce8ce34f56f1a84f99c83fffaa90dedd02e94b8b8abb1f8fa57a71bf547d")
    }

    @Test func passphrasePMKForSK256UsesPBKDF2WithSHA384() throws {
        let sk128 = try NDPPairwiseMasterKey(
            passphrase: "NAN", suite: .sk128, serviceID: Self.serviceID, publisherNMI: Self.first)
        let sk256 = try NDPPairwiseMasterKey(
            passphrase: "NAN", suite: .sk256, serviceID: Self.serviceID, publisherNMI: Self.first)
        #expect(sk256.bytes.count == 32 && sk256 != sk128)
    }

    @Test(arguments: [
        (NDPCipherSuite.sk128, "cf4f6444d8e2c4efa4f3a651f30f634f"), (.sk256, "081123c857526a096d46482ba802fc28"),
    ])
    func pmkidMatchesHostapVectors(suite: NDPCipherSuite, expected: String) throws {
        let pmkid = try NDPKeyDerivation.pmkid(
            Self.pmk, suite: suite, initiatorNMI: Self.first, responderNMI: Self.second,
            serviceID: Self.serviceID)
        #expect(hexText(pmkid) == expected)
    }

    @Test func ptkForSK128MatchesHostapVector() throws {
        let ptk = try NDPKeyDerivation.ptk(
            Self.pmk, suite: .sk128, initiatorNDI: Self.first, responderNDI: Self.second,
            initiatorNonce: Self.initiatorNonce, responderNonce: Self.responderNonce)
        #expect(hexText(ptk.kck) == "6740476f9cb4cdeefbc7ad2578d55eb2")
        #expect(hexText(ptk.kek) == "e5c755bb4e4fd7bbdb19a5b36ccc77e3")
        #expect(hexText(ptk.tk) == "e27ffc7ba2d6b244634a0cf209f8069a")
    }

    @Test func ptkForSK256MatchesHostapVector() throws {
        let ptk = try NDPKeyDerivation.ptk(
            Self.pmk, suite: .sk256, initiatorNDI: Self.first, responderNDI: Self.second,
            initiatorNonce: Self.initiatorNonce, responderNonce: Self.responderNonce)
        #expect(hexText(ptk.kck) == "7270d5dc05448ab41a73e55156a0783a3374624e81e039f8")
        #expect(hexText(ptk.kek) == "553e2c8a0babfce1f945fba7a6c90c7776646baac0597cd6a49931f26ebf0e49")
        #expect(hexText(ptk.tk) == "446112ba4c258be529338f77455513876961f433ad8747bba1d65b4daf0a375a")
    }

    @Test(arguments: [
        (NDPCipherSuite.sk128, "de7aa9340d1dbb734d4d5acb6be4edc9"),
        (.sk256, "b1f975bd80842135c238f70d033238e7bb553921f5b3bd5c"),
    ])
    func micMatchesHostapVectors(suite: NDPCipherSuite, expected: String) throws {
        // hostap keys this MIC with the 32-byte test key and signs the first nonce.
        let mic = try NDPKeyDerivation.mic(suite: suite, kck: Self.pmk.bytes, data: Self.initiatorNonce)
        #expect(hexText(mic) == expected)
    }

    @Test(arguments: [
        (NDPCipherSuite.sk128, "248d6a61d20638b8e5c026930c3e6039"), (.sk256, "3391fdddfc8dc7393707a65b1b470939"),
    ])
    func authenticationTokenIsTheHeadOfTheSuiteHash(suite: NDPCipherSuite, expected: String) throws {
        // FIPS 180-2's two-block message, the input of hostap's token test.
        let token = try NDPKeyDerivation.authenticationToken(
            suite: suite, requestBody: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        #expect(hexText(token) == expected)
    }

    @Test func badCredentialsAreTypedErrors() {
        #expect(throws: NDPSecurityError.self) { try NDPPairwiseMasterKey(bytes: [1, 2, 3]) }
        #expect(throws: NDPSecurityError.self) {
            try NDPPairwiseMasterKey(passphrase: "", suite: .sk128, serviceID: Self.serviceID, publisherNMI: Self.first)
        }
        #expect(throws: NDPSecurityError.self) {
            try NDPPairwiseMasterKey(
                passphrase: String(repeating: "x", count: 64), suite: .sk128, serviceID: Self.serviceID,
                publisherNMI: Self.first)
        }
    }

    @Test func secretsAreNotPrinted() throws {
        #expect(Self.pmk.description == "PMK (32 bytes)")
        #expect(NDPCredential.passphrase("hunter22").description == "passphrase")
    }
}
