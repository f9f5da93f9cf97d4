import NANCrypto
import Testing

/// Known answers from RFC 4231 ("Identifier and Test Vectors for HMAC-SHA-224, HMAC-SHA-256, HMAC-SHA-384,
/// and HMAC-SHA-512"), §4.2–§4.7.
@Suite struct HMACTests {
    struct Vector: Sendable, CustomStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let sha256: String
        let sha384: String
        var description: String { name }
    }

    static let vectors: [Vector] = [
        Vector(
            name: "RFC 4231 §4.2 test case 1", key: [UInt8](repeating: 0x0b, count: 20), data: ascii("Hi There"),
            sha256: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            sha384: "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"),
        Vector(
            name: "RFC 4231 §4.3 test case 2", key: ascii("Jefe"), data: ascii("what do ya want for nothing?"),
            sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            sha384: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"),
        Vector(
            name: "RFC 4231 §4.4 test case 3", key: [UInt8](repeating: 0xaa, count: 20),
            data: [UInt8](repeating: 0xdd, count: 50),
            sha256: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
            sha384: "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27"),
        Vector(
            name: "RFC 4231 §4.7 test case 6", key: [UInt8](repeating: 0xaa, count: 131),
            data: ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
            sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            sha384: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952"),
    ]

    @Test(arguments: vectors)
    func hmacSHA256MatchesRFC4231(vector: Vector) throws {
        #expect(hexString(try HMAC.sha256(key: vector.key, message: vector.data)) == vector.sha256)
    }

    @Test(arguments: vectors)
    func hmacSHA384MatchesRFC4231(vector: Vector) throws {
        #expect(hexString(try HMAC.sha384(key: vector.key, message: vector.data)) == vector.sha384)
    }

    /// RFC 4231 §4.6 test case 5 checks truncation to 128 bits: the truncated tag is the head of the full one.
    @Test func truncatedTagIsTheHeadOfTheFullOne() throws {
        let tag = try HMAC.sha256(key: [UInt8](repeating: 0x0c, count: 20), message: ascii("Test With Truncation"))
        #expect(hexString(tag.prefix(16)) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func emptyKeyAndMessageWork() throws {
        // HMAC-SHA-256 with an empty key over an empty message (a widely published value).
        #expect(
            hexString(try HMAC.sha256(key: [], message: []))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
