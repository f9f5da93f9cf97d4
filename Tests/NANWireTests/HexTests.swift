import NANWire
import Testing

/// The one hex parser and printer.
@Suite struct HexTests {
    @Test func parsesDigitPairsWithSeparatorsAndPrefixes() {
        #expect(Hex.bytes("0a1B") == [0x0a, 0x1b])
        #expect(Hex.bytes("0a:1b", separators: ":") == [0x0a, 0x1b])
        #expect(Hex.bytes("0x0a 0x1b", separators: " ", allowsPrefix: true) == [0x0a, 0x1b])
        #expect(Hex.bytes("0x00", allowsPrefix: true) == [0x00])
        #expect(Hex.bytes("00", allowsPrefix: true) == [0x00])
    }

    @Test(arguments: ["", "0", "0a1", "0a:1", "+0a", "0a+1", "-1", " 0a", "0x", "0g", "0a:1b"])
    func refusesMalformedText(text: String) {
        #expect(Hex.bytes(text) == nil)
    }

    @Test func aByteOfOneOrTwoDigitsWithoutSign() {
        #expect(Hex.byte("2") == 2)
        #expect(Hex.byte("ff") == 0xff)
        #expect(Hex.byte("+2") == nil)
        #expect(Hex.byte("-0") == nil)
        #expect(Hex.byte("100") == nil)
        #expect(Hex.byte("") == nil)
    }

    @Test func macAddressesRefuseSigns() {
        #expect(MACAddress("+2:+0:00:00:01:00") == nil)
        #expect(MACAddress("02:00:00:00:01:+0") == nil)
        #expect(MACAddress("02-00-00-00-01-0A")?.description == "02:00:00:00:01:0a")
        #expect(ServiceID(hex: "+1:00:00:00:00:00") == nil)
    }

    @Test func printsLowerCaseDigitPairs() {
        #expect(Hex.string([0x0a, 0xff, 0x00]) == "0aff00")
        #expect(Hex.string([0x0a, 0xff], separator: ":") == "0a:ff")
        #expect(Hex.string([]) == "")
    }
}
