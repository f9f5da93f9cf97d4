import NANWire
import Testing

/// IPv6 addresses print as RFC 5952 says (the form `inet_ntop` gives), and link-local ones are built from an
/// interface identifier.
@Suite struct IPv6AddressTests {
    static func address(_ groups: [UInt16]) -> IPv6Address {
        IPv6Address(bytes: groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] })!
    }

    @Test(
        arguments: [
            ([0xfe80, 0, 0, 0, 0x4000, 0xff, 0xfe00, 0x100], "fe80::4000:ff:fe00:100"),
            ([0xfe80, 0, 0, 0, 0, 0xff, 0xfe00, 0x100], "fe80::ff:fe00:100"),
            ([0, 0, 0, 0, 0, 0, 0, 1], "::1"),
            ([0, 0, 0, 0, 0, 0, 0, 0], "::"),
            ([0x2001, 0xdb8, 0, 1, 0, 0, 0, 1], "2001:db8:0:1::1"),
            ([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1], "2001:db8::1:0:0:1"),
            ([0x2001, 0xdb8, 1, 2, 3, 4, 5, 6], "2001:db8:1:2:3:4:5:6"),
            ([0x2001, 0xdb8, 0, 1, 1, 1, 1, 1], "2001:db8:0:1:1:1:1:1"),
        ] as [([UInt16], String)])
    func printsTheRFC5952Form(groups: [UInt16], text: String) {
        #expect(Self.address(groups).description == text)
    }

    @Test func aLinkLocalAddressTakesTheInterfaceIdentifier() {
        let address = IPv6Address.linkLocal(interfaceIdentifier: [0x40, 0, 0, 0xff, 0xfe, 0, 1, 0])
        #expect(address?.description == "fe80::4000:ff:fe00:100")
        #expect(address?.isLinkLocal == true)
        #expect(IPv6Address.linkLocal(interfaceIdentifier: [1, 2]) == nil)
        #expect(IPv6Address(bytes: [UInt8](repeating: 0, count: 15)) == nil)
    }
}

/// The text form parses back, and anything else is refused.
@Suite struct IPv6AddressParsingTests {
    @Test(arguments: ["fe80::4000:ff:fe00:100", "::1", "::", "2001:db8:0:1::1", "2001:db8:1:2:3:4:5:6", "fe80::"])
    func theTextFormRoundTrips(text: String) {
        #expect(IPv6Address(text)?.description == text)
    }

    @Test(arguments: [
        "", ":", ":::", "1::2::3", "12345::", "fe80::g", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9",
        "1:2:3:4::5:6:7:8", "fe80::1%nan0", "::ffff:1.2.3.4", " ::1",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(IPv6Address(text) == nil)
    }

    @Test func leadingZerosAndCapitalsAreAccepted() {
        #expect(IPv6Address("FE80:0000::0001")?.description == "fe80::1")
    }
}
