@testable import NANSystem
import Testing

@Suite struct NetlinkCodecTests {
    @Test func writtenAttributesParseBackWithPaddingAndNestedFlag() throws {
        var writer = NetlinkAttributeWriter()
        try writer.put(NL80211Attribute.nanMasterPref, UInt8(10))
        try writer.put(NL80211Attribute.wdev, UInt64(0x3_0000_0002))
        try writer.put(NL80211Attribute.ifname, string: "nan0")
        try writer.nest(NL80211Attribute.nanConfig) { (n) throws(NetlinkError) in
            try n.putFlag(NL80211NANConfigAttribute.notifyDw)
        }
        let bytes = writer.bytes
        #expect(bytes.count % 4 == 0)
        // u8 attribute: length 5, padded to 8.
        #expect(Array(bytes[0..<8]) == [5, 0, 238, 0, 10, 0, 0, 0])
        // The nested attribute carries NLA_F_NESTED (0x8000) in its type.
        let nestedHeader = bytes.count - 8
        #expect(Array(bytes[nestedHeader..<(nestedHeader + 4)]) == [8, 0, 0x56, 0x81])

        let parsed = try NetlinkAttributes(parsing: bytes)
        #expect(try parsed.integer(NL80211Attribute.nanMasterPref, as: UInt8.self) == 10)
        #expect(try parsed.integer(NL80211Attribute.wdev, as: UInt64.self) == 0x3_0000_0002)
        #expect(parsed.string(NL80211Attribute.ifname) == "nan0")
        #expect(try parsed.nested(NL80211Attribute.nanConfig)?.has(NL80211NANConfigAttribute.notifyDw) == true)
    }

    @Test func truncatedAttributeThrowsMalformedWithItsOffset() {
        // A second attribute claims 12 bytes but only 6 remain.
        let bytes: [UInt8] = [5, 0, 1, 0, 7, 0, 0, 0, 12, 0, 2, 0, 1, 2]
        #expect {
            try NetlinkAttributes(parsing: bytes, baseOffset: 20)
        } throws: { error in
            let error = error as? NetlinkError
            return error?.code == .malformedMessage && error?.detail?.contains("offset 28") == true
        }
    }

    @Test func integerOfWrongSizeIsRejected() throws {
        var writer = NetlinkAttributeWriter()
        try writer.put(NL80211Attribute.wiphy, UInt16(1))
        let parsed = try NetlinkAttributes(parsing: writer.bytes)
        #expect(throws: NetlinkError.self) { try parsed.integer(NL80211Attribute.wiphy, as: UInt32.self) }
        #expect(try parsed.integer(NL80211Attribute.ifindex, as: UInt32.self) == nil)
    }

    @Test func oversizedAttributeIsRefusedWhenWriting() {
        var writer = NetlinkAttributeWriter()
        #expect(throws: NetlinkError.self) {
            try writer.put(NL80211Attribute.frame, bytes: [UInt8](repeating: 0, count: 70_000))
        }
    }

    @Test func datagramWithTwoMessagesSplitsIntoBoth() throws {
        let first = NetlinkMessage(type: 37, flags: 2, sequence: 7, portID: 99, payload: [3, 0, 0, 0, 1, 2])
        let second = NetlinkMessage(type: 3, flags: 2, sequence: 7, portID: 99, payload: [0, 0, 0, 0])
        var datagram = first.encoded
        datagram += [0, 0]  // pad the 22-byte message to 24
        datagram += second.encoded
        let messages = try NetlinkMessage.split(datagram: datagram)
        #expect(messages == [first, second])
    }

    @Test func impossibleMessageLengthIsMalformed() {
        #expect(throws: NetlinkError.self) {
            try NetlinkMessage.split(datagram: [200, 0, 0, 0] + [UInt8](repeating: 0, count: 12))
        }
    }

    @Test func errorAckKeepsErrnoAndExtendedAckText() throws {
        var payload: [UInt8] = []
        appendU32(&payload, UInt32(bitPattern: -17))
        // The capped echo of our request header.
        payload += NetlinkMessage(type: 37, flags: 5, sequence: 4, portID: 0, payload: [115, 0, 0, 0]).encoded.prefix(
            16)
        var tlvs = NetlinkAttributeWriter()
        try tlvs.putRaw(type: NetlinkAck.attributeMessage, payload: Array("NAN already started".utf8) + [0])
        try tlvs.putRaw(type: NetlinkAck.attributeOffset, payload: [24, 0, 0, 0])
        payload += tlvs.bytes
        let message = NetlinkMessage(
            type: NetlinkMessage.typeError,
            flags: NetlinkMessage.flagCapped | NetlinkMessage.flagAckTLVs,
            sequence: 4, portID: 1, payload: payload)
        let ack = try NetlinkAck(message)
        #expect(ack.error == -17)
        #expect(ack.kernelMessage == "NAN already started")
        #expect(ack.offendingOffset == 24)
    }

    @Test func uncappedErrorSkipsTheEchoedRequest() throws {
        var payload: [UInt8] = []
        appendU32(&payload, UInt32(bitPattern: -1))
        payload +=
            NetlinkMessage(type: 37, flags: 5, sequence: 4, portID: 0, payload: [1, 0, 0, 0, 9, 9, 9, 9]).encoded
        var tlvs = NetlinkAttributeWriter()
        try tlvs.putRaw(type: NetlinkAck.attributeMessage, payload: Array("nope".utf8) + [0])
        payload += tlvs.bytes
        let ack = try NetlinkAck(
            NetlinkMessage(
                type: NetlinkMessage.typeError, flags: NetlinkMessage.flagAckTLVs,
                sequence: 4, portID: 1, payload: payload))
        #expect(ack.error == -1)
        #expect(ack.kernelMessage == "nope")
    }

    @Test func positiveAckValueIsKeptForHwsimRadioIDs() throws {
        var payload: [UInt8] = []
        appendU32(&payload, 3)
        payload += [UInt8](repeating: 0, count: 16)
        let ack = try NetlinkAck(
            NetlinkMessage(
                type: NetlinkMessage.typeError, flags: NetlinkMessage.flagCapped,
                sequence: 2, portID: 1, payload: payload))
        #expect(ack.error == 3)
        #expect(ack.kernelMessage == nil)
    }

    /// Found by `tools/fuzz/run netlink`: an error message carrying Int32.min trapped when negated into an errno.
    @Test func anErrorValueNoErrnoCanHaveIsMalformedNotATrap() throws {
        for value in [Int32.min, -4096] {
            var payload: [UInt8] = []
            appendU32(&payload, UInt32(bitPattern: value))
            payload += [UInt8](repeating: 0, count: 16)
            let message = NetlinkMessage(
                type: NetlinkMessage.typeError, flags: NetlinkMessage.flagCapped,
                sequence: 2, portID: 1, payload: payload)
            #expect(throws: NetlinkError.self) { _ = try NetlinkAck(message) }
        }
        var payload: [UInt8] = []
        appendU32(&payload, UInt32(bitPattern: -4095))
        payload += [UInt8](repeating: 0, count: 16)
        let largest = try NetlinkAck(
            NetlinkMessage(
                type: NetlinkMessage.typeError, flags: NetlinkMessage.flagCapped,
                sequence: 2, portID: 1, payload: payload))
        #expect(largest.refusal == Errno(rawValue: 4095))
    }

    @Test func requestHeaderCarriesFamilyFlagsAndSequence() {
        let bytes = GenericNetlinkMessage.encodeRequest(
            family: 0x25, command: 115, version: 0,
            flags: NetlinkMessage.flagRequest | NetlinkMessage.flagAck, sequence: 9,
            attributes: [8, 0, 1, 0, 2, 0, 0, 0])
        #expect(bytes == [28, 0, 0, 0, 0x25, 0, 5, 0, 9, 0, 0, 0, 0, 0, 0, 0, 115, 0, 0, 0, 8, 0, 1, 0, 2, 0, 0, 0])
    }
}
