import Foundation
@testable import NANEngine
import NANWire

/// The wpa_supplicant 2.12 NCS-SK-128 run (NANWireTests/Fixtures/wpa_supplicant-2.12/README.md; the frames are
/// read from there, where the decode tests use them too): passphrase `NAN`, publisher
/// (responder) NMI 42:00:00:00:00:00 and NDI 52:00:00:00:00:00, subscriber (initiator) NMI 42:00:00:00:01:00
/// and NDI 52:00:00:00:01:00, service `_example-service._tcp` (ID c57ed9d5d167), publish ID 1.
enum WPASupplicantRun {
    static let passphrase = "NAN"
    static let serviceID = ServiceID(hex: "c57ed9d5d167")!
    static let publisherNMI = MACAddress("42:00:00:00:00:00")!
    static let subscriberNMI = MACAddress("42:00:00:00:01:00")!
    static let publisherNDI = MACAddress("52:00:00:00:00:00")!
    static let subscriberNDI = MACAddress("52:00:00:00:01:00")!

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("NANWireTests/Fixtures/wpa_supplicant-2.12")

    /// The NAF action body (after the 24-byte 802.11 header) of `sk128-ndp-naf-data-path-<kind>-01.hex`.
    static func body(_ kind: String) throws -> [UInt8] {
        let text = try String(
            contentsOf: folder.appendingPathComponent("sk128-ndp-naf-data-path-\(kind)-01.hex"), encoding: .utf8)
        return Array(hexBytes(text).dropFirst(24))
    }

    static var request: [UInt8] { get throws { try body("request") } }
    static var response: [UInt8] { get throws { try body("response") } }
    static var confirm: [UInt8] { get throws { try body("confirm") } }
    static var keyInstall: [UInt8] { get throws { try body("key-install") } }
}

/// Bytes from hex text; non-hex characters are skipped. Test-only: traps on an odd digit count.
func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { $0.isHexDigit })
    precondition(digits.count % 2 == 0, "odd hex digit count in test vector")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

/// Lower-case hex of `bytes`.
func hexText(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// Byte positions inside a data-path NAF body's Shared-Key Descriptor, for tests that alter frames.
struct DescriptorOffsets {
    /// First byte of the RSN key descriptor (after the publish ID).
    let descriptor: Int
    /// Length of the attribute body.
    let attributeLength: Int
    /// Offset of the attribute's length field.
    let lengthField: Int

    init(_ body: [UInt8]) {
        var i = 7
        while body[i] != 0x24 { i += 3 + Int(body[i + 1]) + Int(body[i + 2]) << 8 }
        lengthField = i + 1
        attributeLength = Int(body[i + 1]) + Int(body[i + 2]) << 8
        descriptor = i + 4
    }

    var replayCounter: Range<Int> { descriptor + 5..<descriptor + 13 }
    var nonce: Range<Int> { descriptor + 13..<descriptor + 45 }
    func mic(_ length: Int) -> Range<Int> { descriptor + 77..<descriptor + 77 + length }
}

extension Array where Element == UInt8 {
    /// A copy with `range` set to zero.
    func zeroing(_ range: Range<Int>) -> [UInt8] {
        var copy = self
        copy.replaceSubrange(range, with: repeatElement(0, count: range.count))
        return copy
    }
}
