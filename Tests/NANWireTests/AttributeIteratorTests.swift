import Testing
@testable import NANWire

@Suite struct AttributeIteratorTests {
    @Test func walksAttributesAndKeepsUnknownIDs() throws {
        let bytes = hex("00 02 00 80 11 | 7f 03 00 aa bb cc | 02 06 00 01 02 03 04 05 06")
        let list = try NANAttribute.decodeList(ByteReader(bytes))
        #expect(list.count == 3)
        #expect(list[0] == .masterIndication(MasterIndicationAttribute(masterPreference: 0x80, randomFactor: 0x11)))
        #expect(list[1] == .unknown(UnknownAttribute(id: NANAttributeID(0x7f), body: [0xaa, 0xbb, 0xcc][...])))
        var w = ByteWriter()
        try NANAttribute.encodeList(list, into: &w)
        #expect(w.bytes == bytes)
    }

    @Test func lengthPastTheEndIsOverlong() {
        let bytes = hex("03 20 00 01 02")
        #expect(
            throws: NANWireError(
                .overlong, at: 1, "Service Descriptor (0x03) attribute length 32 exceeds the 2 bytes left")
        ) {
            _ = try NANAttribute.decodeList(ByteReader(bytes))
        }
    }

    @Test func cutHeaderIsTruncated() {
        #expect(throws: NANWireError.self) { _ = try NANAttribute.decodeList(ByteReader(hex("03 05"))) }
        expectError(.truncated, at: 6) {
            _ = try NANAttribute.decodeList(ByteReader(hex("00 02 00 01 02 03 05")))
        }
    }

    @Test func trailingBytesInsideAFixedAttributeAreOverlong() {
        expectError(.overlong, at: 5) {
            _ = try NANAttribute.decodeList(ByteReader(hex("00 03 00 01 02 03")))
        }
    }
}
