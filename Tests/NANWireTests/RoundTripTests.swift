import Testing
@testable import NANWire

/// decode(encode(x)) == x for seeded random values of every attribute and frame kind.
@Suite struct RoundTripTests {
    @Test(arguments: [UInt64(1), 2, 3, 0xC0FFEE])
    func everyAttributeKindRoundTrips(seed: UInt64) throws {
        var g = ValueGenerator(seed: seed)
        for _ in 0..<2_000 {
            let value = g.attribute()
            let bytes = try encodeAttribute(value)
            let decoded = try decodeAttribute(bytes)
            #expect(decoded == value, "attribute \(value.id) did not round-trip: \(hexString(bytes))")
            // Encoding the decoded value gives the same bytes again.
            #expect(try encodeAttribute(decoded) == bytes)
        }
    }

    @Test(arguments: [UInt64(7), 8])
    func framesRoundTrip(seed: UInt64) throws {
        var g = ValueGenerator(seed: seed)
        for _ in 0..<500 {
            let sdf = g.sdf()
            #expect(try ServiceDiscoveryFrame(actionBody: sdf.encoded()) == sdf)
            let naf = g.naf()
            #expect(try NANActionFrame(actionBody: naf.encoded()) == naf)
            let frame = g.managementFrame()
            #expect(try NANManagementFrame(bytes: frame.encoded()) == frame)
        }
    }

    @Test func sdfMessagesRoundTrip() throws {
        var g = ValueGenerator(seed: 99)
        for _ in 0..<300 {
            var messages: [ServiceDiscoveryMessage] = []
            var used = Set<InstanceID>()
            for _ in 0..<g.int(1...3) {
                var sda = g.sda()
                while used.contains(sda.instanceID) { sda.instanceID = InstanceID(g.u8()) }
                used.insert(sda.instanceID)
                var sdea = g.maybe { $0.sdea() }
                sdea?.instanceID = sda.instanceID
                messages.append(ServiceDiscoveryMessage(descriptor: sda, descriptorExtension: sdea))
            }
            let frame = ServiceDiscoveryFrame(messages: messages)
            #expect(try ServiceDiscoveryFrame(actionBody: frame.encoded()).messages() == messages)
        }
    }
}
