import NANCrypto
import Testing

/// PBKDF2-HMAC-SHA-256 known answers: RFC 7914 ("The scrypt Password-Based Key Derivation Function") §11, and
/// the RFC 6070-style SHA-256 vectors (RFC 6070's inputs with HMAC-SHA-256, as published with RFC 7914
/// errata and widely reproduced).
@Suite struct PBKDF2Tests {
    @Test func rfc7914Section11OneIteration() throws {
        let key = try PBKDF2.deriveKey(
            .sha256, password: ascii("passwd"), salt: ascii("salt"), iterations: 1, length: 64)
        #expect(
            hexString(key) == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    @Test func rfc7914Section11EightyThousandIterations() throws {
        let key = try PBKDF2.deriveKey(
            .sha256, password: ascii("Password"), salt: ascii("NaCl"), iterations: 80000, length: 64)
        #expect(
            hexString(key) == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
                + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
    }

    @Test(arguments: [
        (1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
        (2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
        (4096, "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a"),
    ])
    func rfc6070InputsWithSHA256(iterations: Int, expected: String) throws {
        let key = try PBKDF2.deriveKey(
            .sha256, password: ascii("password"), salt: ascii("salt"), iterations: iterations, length: 32)
        #expect(hexString(key) == expected)
    }

    @Test func zeroIterationsIsATypedError() {
        #expect(throws: CryptoError.self) {
            try PBKDF2.deriveKey(.sha256, password: ascii("p"), salt: ascii("s"), iterations: 0, length: 32)
        }
    }
}
