import NANCrypto
import Testing

@Suite struct RandomAndCompareTests {
    @Test func randomBytesHaveTheRequestedLengthAndDiffer() throws {
        let a = try SecureRandom.bytes(32)
        let b = try SecureRandom.bytes(32)
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b)
        #expect(try SecureRandom.bytes(0).isEmpty)
    }

    @Test func constantTimeEqualityComparesBytesAndLengths() {
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equal([UInt8](), [UInt8]()))
        #expect(ConstantTime.equal([9, 1, 2, 3][1...], [1, 2, 3]))
    }

    @Test func libsslLinksAndCreatesATLSContext() {
        #expect(TLSSupport.isAvailable)
    }
}
