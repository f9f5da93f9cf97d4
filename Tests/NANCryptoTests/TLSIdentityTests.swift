import NANCrypto
import Testing

/// The local identity (key + self-signed certificate), its PEM form, certificates and fingerprints.
@Suite struct TLSIdentityTests {
    @Test func generatedIdentityHasTheCommonNameAndSurvivesPEM() throws {
        let identity = try TLSIdentity.generate(commonName: "waware test")
        #expect(identity.certificate.commonName == "waware test")
        #expect(identity.certificate.subject == "/CN=waware test")
        let reloaded = try TLSIdentity(pem: try identity.pemEncoded())
        #expect(reloaded.certificate == identity.certificate)
        #expect(try reloaded.pemEncoded() == identity.pemEncoded())
    }

    @Test func descriptionNeverShowsTheKey() throws {
        let identity = try TLSIdentity.generate(commonName: "secret")
        #expect(!identity.description.contains("PRIVATE"))
        #expect(identity.description.contains(identity.fingerprint.description))
    }

    @Test func malformedOrMismatchedPEMIsRefused() throws {
        #expect(throws: TLSError.self) { try TLSIdentity(pem: Array("not pem".utf8)) }
        let a = try TLSIdentity.generate(commonName: "a"), b = try TLSIdentity.generate(commonName: "b")
        let aPEM = try a.pemEncoded(), bPEM = try b.pemEncoded()
        let aKey = aPEM[..<Self.certificateStart(aPEM)], bCertificate = bPEM[Self.certificateStart(bPEM)...]
        do {
            _ = try TLSIdentity(pem: Array(aKey + bCertificate))
            Issue.record("a key with another's certificate was accepted")
        } catch {
            #expect(error.code == .invalidIdentity)
        }
    }

    /// Where the certificate's PEM block starts.
    static func certificateStart(_ pem: [UInt8]) -> Int {
        let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
        return (0...(pem.count - marker.count)).first { Array(pem[$0..<$0 + marker.count]) == marker }!
    }

    @Test func fingerprintIsSHA256OfTheDERAndParsesFromHex() throws {
        let identity = try TLSIdentity.generate(commonName: "fp")
        #expect(identity.fingerprint.bytes == (try Digest.sha256(identity.certificate.der)))
        let text = identity.fingerprint.description
        #expect(text.count == 64)
        #expect(CertificateFingerprint(hex: text) == identity.fingerprint)
        #expect(CertificateFingerprint(hex: text.uppercased()) == identity.fingerprint)
        let colons = stride(from: 0, to: 64, by: 2).map { String(Array(text)[$0...$0 + 1]) }.joined(separator: ":")
        #expect(CertificateFingerprint(hex: colons) == identity.fingerprint)
        #expect(CertificateFingerprint(hex: String(text.dropLast(2))) == nil)
        #expect(CertificateFingerprint(hex: "zz" + text.dropFirst(2)) == nil)
    }

    @Test func peerCertificateParsesDERAndRefusesGarbage() throws {
        let identity = try TLSIdentity.generate(commonName: "der")
        #expect(try PeerCertificate(der: identity.certificate.der) == identity.certificate)
        #expect(throws: TLSError.self) { try PeerCertificate(der: [0x30, 0x03, 0x02, 0x01]) }
        #expect(throws: TLSError.self) { try PeerCertificate(der: identity.certificate.der + [0]) }
        #expect(throws: TLSError.self) { try PeerCertificate(der: []) }
    }

    @Test func untrustedPeerErrorNamesTheFingerprint() throws {
        let identity = try TLSIdentity.generate(commonName: "x")
        let error = TLSError.untrustedPeer(identity.fingerprint)
        #expect(error.description == "peer certificate not trusted (fingerprint \(identity.fingerprint))")
        #expect(TLSError.Code.untrustedPeer ~= error)
    }
}
