import NANCrypto
import Testing

/// Known answers from FIPS 180-4's examples (NIST "SHA-256"/"SHA-384" example values for "abc").
@Suite struct DigestTests {
    @Test func sha256OfABCMatchesFIPS180Example() throws {
        #expect(
            hexString(try Digest.sha256(ascii("abc")))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func sha384OfABCMatchesFIPS180Example() throws {
        #expect(
            hexString(try Digest.sha384(ascii("abc")))
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
    }

    @Test func outputSizesFollowTheFunction() throws {
        #expect(try Digest.hash(.sha256, []).count == HashFunction.sha256.outputSize)
        #expect(try Digest.hash(.sha384, []).count == HashFunction.sha384.outputSize)
    }
}
