/// The IEEE 802.11 HT and VHT Capabilities elements that an Element Container attribute carries, decoded
/// into their fields (IEEE 802.11-2020 §9.4.2.55 and §9.4.2.157), and the names of common element IDs.

extension InformationElement {
    /// HT Capabilities (45).
    public static let htCapabilitiesID: UInt8 = 45
    /// VHT Capabilities (191).
    public static let vhtCapabilitiesID: UInt8 = 191
    /// Element ID Extension (255): the first body byte is the extension ID.
    public static let extensionID: UInt8 = 255

    /// The element's name, e.g. `HT Capabilities`; `element 42` for IDs this table does not name.
    public var name: String {
        switch id {
        case 45: return "HT Capabilities"
        case 61: return "HT Operation"
        case 127: return "Extended Capabilities"
        case 191: return "VHT Capabilities"
        case 192: return "VHT Operation"
        case 221: return "Vendor Specific"
        case 255:
            switch body.first {
            case 35: return "HE Capabilities"
            case 36: return "HE Operation"
            case 59: return "HE 6 GHz Band Capabilities"
            case let ext?: return "element 255 extension \(ext)"
            case nil: return "element 255"
            }
        default: return "element \(id)"
        }
    }
}

/// The HT Capabilities element's body (26 bytes): HT Capability Information (2, LE), A-MPDU Parameters (1),
/// Supported MCS Set (16), HT Extended Capabilities (2), Transmit Beamforming Capabilities (4), ASEL (1).
public struct HTCapabilities: Hashable, Sendable {
    /// HT Capability Information.
    public var capabilityInfo: UInt16
    /// A-MPDU Parameters: bits 0–1 maximum A-MPDU length exponent, bits 2–4 minimum MPDU start spacing.
    public var ampduParameters: UInt8
    /// Supported MCS Set (16 bytes): RX MCS bitmask (77 bits), RX highest data rate, TX MCS set fields.
    public var supportedMCSSet: [UInt8]
    /// HT Extended Capabilities.
    public var extendedCapabilities: UInt16
    /// Transmit Beamforming Capabilities.
    public var transmitBeamforming: UInt32
    /// ASEL Capabilities.
    public var aselCapabilities: UInt8

    /// Decodes an HT Capabilities element's body; total: anything but 26 bytes is a typed error.
    public init(body: ArraySlice<UInt8>) throws(NANWireError) {
        let what = "HT Capabilities element"
        guard body.count == 26 else {
            throw NANWireError(.malformed, at: 0, "\(what): \(body.count) bytes, expected 26")
        }
        var reader = ByteReader(body, origin: body.startIndex)
        capabilityInfo = try reader.readLE16("\(what): HT capability information")
        ampduParameters = try reader.readU8("\(what): A-MPDU parameters")
        supportedMCSSet = Array(try reader.readBytes(16, "\(what): supported MCS set"))
        extendedCapabilities = try reader.readLE16("\(what): HT extended capabilities")
        transmitBeamforming = try reader.readLE32("\(what): transmit beamforming capabilities")
        aselCapabilities = try reader.readU8("\(what): ASEL capabilities")
    }

    /// Bit 0: LDPC coding.
    public var ldpc: Bool { capabilityInfo & (1 << 0) != 0 }
    /// Bit 1: 20 and 40 MHz (else 20 MHz only).
    public var supports40MHz: Bool { capabilityInfo & (1 << 1) != 0 }
    /// Bits 2–3: SM power save: `static` (0), `dynamic` (1), `disabled` (3), `reserved` (2).
    public var smPowerSave: String {
        switch (capabilityInfo >> 2) & 0x3 {
        case 0: return "static"
        case 1: return "dynamic"
        case 3: return "disabled"
        default: return "reserved"
        }
    }
    /// Bit 4: HT-greenfield.
    public var greenfield: Bool { capabilityInfo & (1 << 4) != 0 }
    /// Bit 5: short GI for 20 MHz.
    public var shortGI20: Bool { capabilityInfo & (1 << 5) != 0 }
    /// Bit 6: short GI for 40 MHz.
    public var shortGI40: Bool { capabilityInfo & (1 << 6) != 0 }
    /// Bit 7: TX STBC.
    public var txSTBC: Bool { capabilityInfo & (1 << 7) != 0 }
    /// Bits 8–9: RX STBC, the number of spatial streams (0 = none).
    public var rxSTBCStreams: Int { Int((capabilityInfo >> 8) & 0x3) }
    /// Bit 11: maximum A-MSDU length 7935 bytes (else 3839).
    public var maximumAMSDULength: Int { capabilityInfo & (1 << 11) != 0 ? 7935 : 3839 }
    /// Bit 12: DSSS/CCK in 40 MHz.
    public var dsssCCK40MHz: Bool { capabilityInfo & (1 << 12) != 0 }
    /// Bit 14: 40 MHz intolerant.
    public var fortyMHzIntolerant: Bool { capabilityInfo & (1 << 14) != 0 }
    /// Bit 15: L-SIG TXOP protection.
    public var lsigTXOPProtection: Bool { capabilityInfo & (1 << 15) != 0 }
    /// The maximum A-MPDU length in bytes, 2^(13 + exponent) − 1.
    public var maximumAMPDULength: Int { (1 << (13 + Int(ampduParameters & 0x3))) - 1 }
    /// Minimum MPDU start spacing: `no restriction`, `1/4 µs`, …, `16 µs` (bits 2–4 of A-MPDU Parameters).
    public var minimumMPDUStartSpacing: String {
        ["no restriction", "1/4 µs", "1/2 µs", "1 µs", "2 µs", "4 µs", "8 µs", "16 µs"][
            Int((ampduParameters >> 2) & 0x7)]
    }
    /// The MCS indices the RX MCS bitmask (the first 77 bits of the Supported MCS Set) marks.
    public var rxMCSIndices: [Int] {
        (0..<77).filter { supportedMCSSet[$0 / 8] & (1 << ($0 % 8)) != 0 }
    }
}

/// The VHT Capabilities element's body (12 bytes): VHT Capabilities Information (4, LE) and the Supported
/// VHT-MCS and NSS Set (RX MCS map 2, RX highest long GI data rate 2, TX MCS map 2, TX highest rate 2).
public struct VHTCapabilities: Hashable, Sendable {
    /// VHT Capabilities Information.
    public var capabilityInfo: UInt32
    /// RX VHT-MCS map: 2 bits per spatial stream 1–8 (0 MCS 0–7, 1 MCS 0–8, 2 MCS 0–9, 3 not supported).
    public var rxMCSMap: UInt16
    /// RX highest supported long GI data rate (bits 0–12, Mb/s; 0 = not stated) and bits 13–15.
    public var rxHighestRate: UInt16
    /// TX VHT-MCS map, as ``rxMCSMap``.
    public var txMCSMap: UInt16
    /// TX highest supported long GI data rate (bits 0–12) and bits 13–15.
    public var txHighestRate: UInt16

    /// Decodes a VHT Capabilities element's body; total: anything but 12 bytes is a typed error.
    public init(body: ArraySlice<UInt8>) throws(NANWireError) {
        let what = "VHT Capabilities element"
        guard body.count == 12 else {
            throw NANWireError(.malformed, at: 0, "\(what): \(body.count) bytes, expected 12")
        }
        var reader = ByteReader(body, origin: body.startIndex)
        capabilityInfo = try reader.readLE32("\(what): VHT capabilities information")
        rxMCSMap = try reader.readLE16("\(what): RX VHT-MCS map")
        rxHighestRate = try reader.readLE16("\(what): RX highest data rate")
        txMCSMap = try reader.readLE16("\(what): TX VHT-MCS map")
        txHighestRate = try reader.readLE16("\(what): TX highest data rate")
    }

    private func bits(_ from: Int, _ count: Int) -> Int {
        Int((capabilityInfo >> UInt32(from)) & ((1 << UInt32(count)) - 1))
    }
    private func bit(_ n: Int) -> Bool { capabilityInfo & (1 << UInt32(n)) != 0 }

    /// Bits 0–1: maximum MPDU length in bytes (3895, 7991 or 11454; nil for the reserved 3).
    public var maximumMPDULength: Int? { [3895, 7991, 11454, nil][bits(0, 2)] }
    /// Bits 2–3: supported channel width set: `80 MHz` (0), `160 MHz` (1), `160 and 80+80 MHz` (2), `reserved`.
    public var supportedChannelWidths: String { ["80 MHz", "160 MHz", "160 and 80+80 MHz", "reserved"][bits(2, 2)] }
    /// Bit 4: RX LDPC.
    public var rxLDPC: Bool { bit(4) }
    /// Bit 5: short GI for 80 MHz.
    public var shortGI80: Bool { bit(5) }
    /// Bit 6: short GI for 160 and 80+80 MHz.
    public var shortGI160: Bool { bit(6) }
    /// Bit 7: TX STBC.
    public var txSTBC: Bool { bit(7) }
    /// Bits 8–10: RX STBC, the number of spatial streams (0 = none).
    public var rxSTBCStreams: Int { bits(8, 3) }
    /// Bit 11: SU beamformer.
    public var suBeamformer: Bool { bit(11) }
    /// Bit 12: SU beamformee.
    public var suBeamformee: Bool { bit(12) }
    /// Bits 13–15: beamformee space-time streams supported, minus 1.
    public var beamformeeSTS: Int { bits(13, 3) }
    /// Bits 16–18: number of sounding dimensions, minus 1.
    public var soundingDimensions: Int { bits(16, 3) }
    /// Bit 19: MU beamformer.
    public var muBeamformer: Bool { bit(19) }
    /// Bit 20: MU beamformee.
    public var muBeamformee: Bool { bit(20) }
    /// Bit 21: TXOP power save.
    public var txopPowerSave: Bool { bit(21) }
    /// Bit 22: +HTC-VHT.
    public var htcVHT: Bool { bit(22) }
    /// Bits 23–25: the maximum A-MPDU length in bytes, 2^(13 + exponent) − 1.
    public var maximumAMPDULength: Int { (1 << (13 + bits(23, 3))) - 1 }
    /// Bits 26–27: VHT link adaptation (0 none, 2 unsolicited, 3 both).
    public var linkAdaptation: Int { bits(26, 2) }
    /// Bit 28: RX antenna pattern consistency.
    public var rxAntennaPatternConsistency: Bool { bit(28) }
    /// Bit 29: TX antenna pattern consistency.
    public var txAntennaPatternConsistency: Bool { bit(29) }
    /// Bits 30–31: extended NSS BW support.
    public var extendedNSSBandwidth: Int { bits(30, 2) }

    /// The highest MCS per spatial stream a VHT-MCS map allows (7, 8 or 9), for streams 1 up to the last
    /// supported one; an unsupported stream in between is nil.
    public static func maximumMCS(perStream map: UInt16) -> [Int?] {
        var list: [Int?] = (0..<8).map { (stream: Int) -> Int? in
            let code = Int((map >> UInt16(2 * stream)) & 0x3)
            return code == 3 ? nil : 7 + code
        }
        while let last = list.last, last == nil { list.removeLast() }
        return list
    }
}
