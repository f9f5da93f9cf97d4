import Foundation
import Testing
@testable import NANWire

/// The RSN key descriptor inside a Shared-Key Descriptor attribute: wpa_supplicant 2.12's four NCS-SK-128
/// descriptors decode to the fields its handshake sets (Fixtures/wpa_supplicant-2.12), and bad bytes are
/// typed errors.
@Suite struct RSNKeyDescriptorTests {
    static func descriptor(_ kind: String) throws -> (SharedKeyDescriptorAttribute, RSNKeyDescriptor) {
        let frame = try WPASupplicantFrameTests.frame("sk128-ndp-naf-data-path-\(kind)-01.hex")
        guard case .action(let naf) = frame.body, let skda = try DataPathMessage(naf).sharedKeyDescriptor else {
            throw NANWireError(.missing, at: 0, "\(kind): no Shared-Key Descriptor")
        }
        return (skda, try skda.decodedKeyDescriptor(micLength: 16))
    }

    @Test(arguments: [
        // (message, key information, replay counter, key data length): README run sk128-ndp.
        ("request", UInt16(0x0088), UInt64(1), 0),
        ("response", 0x0108, 1, 0),
        ("confirm", 0x13c8, 2, 40),
        ("key-install", 0x1348, 2, 40),
    ])
    func wpaSupplicantDescriptorsDecode(kind: String, info: UInt16, counter: UInt64, keyData: Int) throws {
        let (skda, descriptor) = try Self.descriptor(kind)
        #expect(skda.publishID == InstanceID(1))
        #expect(descriptor.descriptorType == 2)
        #expect(descriptor.keyInformation.rawValue == info)
        #expect(descriptor.keyInformation.contains(.pairwise) && descriptor.keyInformation.descriptorVersion == 0)
        #expect(descriptor.keyLength == 0)
        #expect(descriptor.replayCounter == counter)
        #expect(descriptor.mic.count == 16 && descriptor.keyData.count == keyData)
        #expect(try descriptor.encoded() == Array(skda.keyDescriptor))
    }

    @Test func initiatorAndResponderNoncesRepeatInMessagesThreeAndFour() throws {
        #expect(try Self.descriptor("request").1.nonce == Self.descriptor("confirm").1.nonce)
        #expect(try Self.descriptor("response").1.nonce == Self.descriptor("key-install").1.nonce)
        #expect(try Self.descriptor("request").1.nonce != Self.descriptor("response").1.nonce)
    }

    @Test func sk256LayoutRoundTripsWithA24ByteMIC() throws {
        var descriptor = RSNKeyDescriptor(
            keyInformation: [.pairwise, .mic], replayCounter: 0x0102_0304_0506_0708,
            nonce: Array(0..<32), micLength: 24, keyData: [9, 9])
        descriptor.mic = Array(100..<124)
        let bytes = try descriptor.encoded()
        #expect(bytes.count == 77 + 24 + 2 + 2)
        #expect(Array(bytes[5..<13]) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(try RSNKeyDescriptor(decoding: bytes[...], micLength: 24) == descriptor)
    }

    @Test func badDescriptorsAreTypedErrors() throws {
        let good = try RSNKeyDescriptor(
            keyInformation: [.pairwise, .ack], replayCounter: 1, nonce: Array(repeating: 7, count: 32),
            micLength: 16
        ).encoded()
        expectError(.truncated) { _ = try RSNKeyDescriptor(decoding: good.prefix(50), micLength: 16) }
        expectError(.truncated) { _ = try RSNKeyDescriptor(decoding: good[...], micLength: 24) }
        var wrongType = good
        wrongType[0] = 0xFE
        expectError(.outOfRange) { _ = try RSNKeyDescriptor(decoding: wrongType[...], micLength: 16) }
        var overlong = good
        overlong[overlong.count - 1] = 5
        expectError(.overlong) { _ = try RSNKeyDescriptor(decoding: overlong[...], micLength: 16) }
        expectError(.overlong) { _ = try RSNKeyDescriptor(decoding: (good + [0])[...], micLength: 16) }
        expectError(.outOfRange) { _ = try RSNKeyDescriptor(decoding: good[...], micLength: 20) }
        var shortNonce = try RSNKeyDescriptor(decoding: good[...], micLength: 16)
        shortNonce.nonce = [1]
        expectError(.outOfRange) { _ = try shortNonce.encoded() }
    }
}
