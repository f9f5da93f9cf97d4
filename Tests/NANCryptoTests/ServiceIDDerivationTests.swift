import NANWire
import Testing
import NANCrypto
import NANWire

/// Vectors computed independently with `printf '%s' <name lower-cased> | openssl dgst -sha256` (first 12 hex digits).
@Suite struct ServiceIDDerivationTests {
    @Test(arguments: [
        ("_example-service._tcp", "c57ed9d5d167"),
        ("MyService", "5a6fb1fc274b"),
        ("_ipp._tcp", "bfd39037d25c"),
        ("", "e3b0c44298fc"),
    ])
    func serviceIDIsTheHeadOfSHA256OfTheLowerCasedName(name: String, expected: String) throws {
        #expect(try ServiceID(serviceName: name) == ServiceID(hex: expected))
    }

    @Test func derivationIgnoresASCIICase() throws {
        #expect(try ServiceID(serviceName: "_Example-Service._TCP") == ServiceID(hex: "c57ed9d5d167"))
    }

    @Test func sha256MatchesTheOpenSSLCommandLine() throws {
        let digest = try Digest.sha256(Array("_example-service._tcp".utf8))
        #expect(
            digest.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
                == "c57ed9d5d16711ee3cdd6ed98b1e5b03f58a9c90fa31b927484c988903029937")
    }
}
