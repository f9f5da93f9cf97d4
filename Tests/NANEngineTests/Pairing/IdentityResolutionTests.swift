@testable import NANEngine
import NANWire
import Testing

/// NIRA tags and their resolution. The construction is hostap's `nan_crypto_derive_nira_tag` (Wi-Fi Aware
/// 4.0 NIRA cipher version 0). No published vector was found (hostap's module tests have none); the known
/// answer below was computed independently with `openssl dgst -sha256 -mac HMAC` over "NIR" ‖ NMI ‖ nonce.
@Suite struct IdentityResolutionTests {
    static let nik = NANIdentityKey(bytes: Array(0..<16))!
    static let nmi = MACAddress(0x02, 0x11, 0x22, 0x33, 0x44, 0x55)

    @Test func tagMatchesTheIndependentlyComputedValue() throws {
        let tag = try Self.nik.tag(nmi: Self.nmi, nonce: [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(hexText(tag) == "d301e1dbc0063b27")
    }

    @Test func resolverFindsThePairedPeerAfterAnNMIChange() throws {
        var resolver = IdentityResolver<String>(capacity: 4)
        try resolver.add(Self.nik, for: "phone")
        try resolver.add(NANIdentityKey(bytes: [UInt8](repeating: 9, count: 16))!, for: "laptop")
        let newNMI = MACAddress(0x06, 0xaa, 0xbb, 0xcc, 0xdd, 0xee)
        let nira = try Self.nik.identityResolution(nmi: newNMI)
        #expect(resolver.resolve(nira, from: newNMI) == "phone")
        // The same NIRA replayed from another address does not resolve.
        #expect(resolver.resolve(nira, from: Self.nmi) == nil)
    }

    @Test func unknownKeysForeignVersionsAndUnpairedPeersDoNotResolve() throws {
        var resolver = IdentityResolver<String>()
        try resolver.add(Self.nik, for: "phone")
        let stranger = try NANIdentityKey.random().identityResolution(nmi: Self.nmi)
        #expect(resolver.resolve(stranger, from: Self.nmi) == nil)
        var nira = try Self.nik.identityResolution(nmi: Self.nmi)
        nira.tag[nira.tag.startIndex] ^= 1
        #expect(resolver.resolve(nira, from: Self.nmi) == nil)
        let short = IdentityResolutionAttribute(nonce: [1, 2, 3][...], tag: [][...])
        #expect(resolver.resolve(short, from: Self.nmi) == nil)
        let good = try Self.nik.identityResolution(nmi: Self.nmi)
        resolver.remove("phone")
        #expect(resolver.resolve(good, from: Self.nmi) == nil)
    }

    @Test func resolverIsBoundedByCount() throws {
        var resolver = IdentityResolver<Int>(capacity: 2)
        try resolver.add(try NANIdentityKey.random(), for: 1)
        try resolver.add(try NANIdentityKey.random(), for: 2)
        try resolver.add(try NANIdentityKey.random(), for: 2)  // replace, not grow
        #expect(throws: PairingError.self) { try resolver.add(try NANIdentityKey.random(), for: 3) }
        #expect(resolver.count == 2)
    }

    @Test func nonceIsFreshEachTimeAndTheKeyIsNotPrinted() throws {
        let a = try Self.nik.identityResolution(nmi: Self.nmi), b = try Self.nik.identityResolution(nmi: Self.nmi)
        #expect(a.nonce != b.nonce)
        #expect(!"\(Self.nik)".contains("01"))
        #expect(NANIdentityKey(bytes: [1, 2]) == nil)
        #expect(throws: PairingError.self) { _ = try Self.nik.tag(nmi: Self.nmi, nonce: [1]) }
    }
}
