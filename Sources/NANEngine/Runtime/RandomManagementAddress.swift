public import NANWire

extension MACAddress {
    /// A fresh random NAN management (NMI) address: locally administered (bit 1 of the first byte set),
    /// unicast (bit 0 clear), the other 46 bits from the system's random generator (`getrandom`). Taken
    /// at every NAN start so that an observer cannot link sightings of this device across starts; paired
    /// devices recognise it by its NIRA (see docs/pairing.md).
    public static func randomManagementAddress() -> MACAddress {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<6).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[0] = (bytes[0] & 0xFC) | 0x02
        return MACAddress(bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5])
    }
}
