/// Names for the bit fields a driver reports in its NAN capabilities, as the Wi-Fi Aware specification
/// defines them (the same bits as the kernel's `NAN_OP_MODE_*` and `NAN_DEV_CAPA_*`).
enum NANCapabilityNames {
    /// Operation Mode field (Wi-Fi Aware Table 81): the PHY modes and channel widths the device supports.
    static func operationModes(_ bits: UInt8) -> [String] {
        names(
            of: bits,
            [
                (0x01, "VHT"), (0x10, "HE"), (0x02, "80+80 MHz"), (0x04, "160 MHz"), (0x08, "paging NDL"),
            ])
    }

    /// Capabilities field of the Device Capability attribute (Wi-Fi Aware Table 79).
    static func deviceCapabilities(_ bits: UInt8) -> [String] {
        names(
            of: bits,
            [
                (0x01, "DFS master"), (0x02, "extended key ID"), (0x04, "simultaneous NDP reception"),
                (0x08, "NDPE"), (0x10, "S3"),
            ])
    }

    /// The names of the set bits in `bits`, in the order of `table`, then `bit N` for unknown ones.
    private static func names(of bits: UInt8, _ table: [(bit: UInt8, name: String)]) -> [String] {
        var result = table.filter { bits & $0.bit != 0 }.map(\.name)
        let known = table.reduce(UInt8(0)) { $0 | $1.bit }
        for bit in 0..<8 where bits & ~known & (1 << bit) != 0 {
            result.append("bit \(bit)")
        }
        return result
    }
}
