import NANEngine
import NANWire
import Testing

@Test func aRandomManagementAddressIsLocallyAdministeredUnicastAndFreshEachTime() {
    let addresses = (0..<200).map { _ in MACAddress.randomManagementAddress() }
    for address in addresses {
        #expect(address.bytes[0] & 0x02 == 0x02, "locally administered: \(address)")
        #expect(address.bytes[0] & 0x01 == 0, "unicast: \(address)")
    }
    #expect(Set(addresses).count == addresses.count)
}
