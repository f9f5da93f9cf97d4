import Testing
@testable import NANWire

@Suite struct MACAddressTests {
    @Test func parsesColonAndDashFormsInEitherCase() {
        let a = MACAddress("AA:bb:0c:dd:ee:0F")
        #expect(a == MACAddress(0xaa, 0xbb, 0x0c, 0xdd, 0xee, 0x0f))
        #expect(MACAddress("aa-bb-0c-dd-ee-0f") == a)
        #expect(a?.description == "aa:bb:0c:dd:ee:0f")
    }

    @Test func rejectsMalformedText() {
        for bad in [
            "", "aa:bb:cc:dd:ee", "aa:bb:cc:dd:ee:ff:00", "aa:bb:cc:dd:ee:fg", "a:bb:cc:dd:ee:ff", "aabbccddeeff",
            "aa:bb:cc:dd:ee:",
        ] {
            #expect(MACAddress(bad) == nil, "\(bad) should not parse")
        }
    }

    @Test func classifiesBroadcastAndMulticast() {
        #expect(MACAddress.broadcast.isBroadcast)
        #expect(MACAddress.broadcast.isMulticast)
        #expect(mac("01:00:5e:00:00:01").isMulticast)
        #expect(!mac("01:00:5e:00:00:01").isBroadcast)
        #expect(!mac("02:00:00:00:01:00").isMulticast)
        #expect(mac("02:00:00:00:01:00").isLocallyAdministered)
    }

    @Test func buildsFromExactlySixBytes() {
        #expect(MACAddress(bytes: [1, 2, 3, 4, 5, 6]) == MACAddress(1, 2, 3, 4, 5, 6))
        #expect(MACAddress(bytes: [1, 2, 3, 4, 5]) == nil)
    }
}

@Suite struct IdentifierTests {
    @Test func serviceIDPrintsAndParsesHex() {
        let id = ServiceID(hex: "c57ed9d5d167")
        #expect(id == ServiceID(0xc5, 0x7e, 0xd9, 0xd5, 0xd1, 0x67))
        #expect(id?.description == "c57ed9d5d167")
        #expect(ServiceID(hex: "c5:7e:d9:d5:d1:67") == id)
        #expect(ServiceID(hex: "c57ed9d5d1") == nil)
        #expect(ServiceID(hex: "zz7ed9d5d167") == nil)
    }

    @Test func instanceIDZeroIsNotALocalID() {
        #expect(!InstanceID.none.isValidLocalID)
        #expect(InstanceID(1).isValidLocalID)
        #expect(InstanceID(255).isValidLocalID)
    }

    @Test func clusterIDRequiresTheNANPrefix() {
        #expect(ClusterID(mac("50:6f:9a:01:12:34"))?.low == 0x1234)
        #expect(ClusterID(mac("50:6f:9a:02:12:34")) == nil)
        #expect(ClusterID(low: 0xabcd).address == mac("50:6f:9a:01:ab:cd"))
    }
}

@Suite struct ByteReaderTests {
    @Test func readsLittleAndBigEndianFields() throws {
        var r = ByteReader([0x01, 0x34, 0x12, 0x50, 0x6f, 0x9a, 0x78, 0x56, 0x34, 0x12])
        #expect(try r.readU8("a") == 1)
        #expect(try r.readLE16("b") == 0x1234)
        #expect(try r.readBE24("c") == 0x506f9a)
        #expect(try r.readLE32("d") == 0x1234_5678)
        #expect(r.isAtEnd)
    }

    @Test func littleEndianFieldsOfEveryWidthRoundTripThroughTheWriter() throws {
        var w = ByteWriter(capacity: 14)
        w.writeLE16(0x1234)
        w.writeLE32(0x1234_5678)
        w.writeLE64(0x0102_0304_0506_0708)
        #expect(w.bytes == [0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
        var r = ByteReader(w.bytes)
        #expect(try r.readLE16("a") == 0x1234)
        #expect(try r.readLE32("b") == 0x1234_5678)
        #expect(try r.readLE64("c") == 0x0102_0304_0506_0708)
        #expect(r.isAtEnd)
        #expect(throws: NANWireError(.truncated, at: 14, "d")) { try r.readLE64("d") }
    }

    @Test func shortReadThrowsTruncatedWithOffsetAndContext() {
        var r = ByteReader([0x01, 0x02, 0x03])
        _ = try? r.readU8("first")
        #expect(throws: NANWireError(.truncated, at: 1, "the field")) { try r.readLE32("the field") }
        // A failed read does not move the cursor.
        #expect(r.offset == 1)
    }

    @Test func negativeOrHugeCountsAreRejected() {
        var r = ByteReader([0x01])
        #expect(throws: NANWireError.self) { try r.readBytes(-1, "negative") }
        #expect(throws: NANWireError.self) { try r.readBytes(Int.max, "huge") }
    }

    @Test func slicesShareTheInputIndices() throws {
        let buffer: [UInt8] = [9, 8, 7, 6]
        var r = ByteReader(buffer)
        _ = try r.readU8("skip")
        let s = try r.readBytes(2, "two")
        #expect(s.startIndex == 1)
        #expect(Array(s) == [8, 7])
    }

    @Test func errorMessagesNameKindOffsetAndField() {
        let e = NANWireError(.overlong, at: 17, "Service Descriptor attribute: service info")
        #expect(e.description == "overlong at byte 17: Service Descriptor attribute: service info")
    }
}

@Suite struct ByteWriterTests {
    @Test func backfillsAttributeLength() throws {
        var w = ByteWriter()
        try w.attribute(.serviceIDList) { (w: inout ByteWriter) throws(NANWireError) in
            w.writeBytes([1, 2, 3, 4, 5, 6])
        }
        #expect(w.bytes == [0x02, 0x06, 0x00, 1, 2, 3, 4, 5, 6])
    }

    @Test func refusesBodiesLongerThan65535() {
        var w = ByteWriter()
        #expect(throws: NANWireError.self) {
            try w.attribute(.vendorSpecific) { (w: inout ByteWriter) throws(NANWireError) in
                w.writeBytes([UInt8](repeating: 0, count: 65_536))
            }
        }
    }

    @Test func refusesOneByteLengthsOver255() {
        var w = ByteWriter()
        #expect(throws: NANWireError.self) { try w.writeLV8([UInt8](repeating: 0, count: 256), "x") }
    }
}
