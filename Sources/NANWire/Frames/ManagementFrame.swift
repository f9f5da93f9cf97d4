/// The 24-byte IEEE 802.11 management header in front of every action frame.
///
/// Layout: Frame Control (2, LE), Duration (2, LE), Address 1 (receiver/destination), Address 2
/// (transmitter/source), Address 3 (BSSID: the cluster ID, or the NAN Network ID outside a cluster),
/// Sequence Control (2, LE).
public struct ManagementHeader: Hashable, Sendable {
    /// Frame control of an action frame: type management, subtype 13 (`d0 00` on the wire).
    public static let actionFrameControl: UInt16 = 0x00D0
    /// Frame control of an action-no-ack frame: subtype 14 (`e0 00`).
    public static let actionNoAckFrameControl: UInt16 = 0x00E0
    /// Header length in bytes.
    public static let length = 24

    /// Frame control.
    public var frameControl: UInt16
    /// Duration/ID.
    public var duration: UInt16
    /// Address 1: destination.
    public var destination: MACAddress
    /// Address 2: source.
    public var source: MACAddress
    /// Address 3: BSSID (cluster ID or NAN Network ID).
    public var bssid: MACAddress
    /// Sequence control (sequence number << 4 | fragment).
    public var sequenceControl: UInt16

    /// Creates a header; defaults make an action frame.
    public init(
        frameControl: UInt16 = ManagementHeader.actionFrameControl, duration: UInt16 = 0,
        destination: MACAddress, source: MACAddress, bssid: MACAddress, sequenceControl: UInt16 = 0
    ) {
        self.frameControl = frameControl
        self.duration = duration
        self.destination = destination
        self.source = source
        self.bssid = bssid
        self.sequenceControl = sequenceControl
    }

    /// Whether frame control says "management action" (or action no-ack), ignoring flag bits.
    public var isAction: Bool {
        let typeSubtype = frameControl & 0x00FC
        return typeSubtype == 0x00D0 || typeSubtype == 0x00E0
    }

    /// Reads the header.
    public init(reading reader: inout ByteReader) throws(NANWireError) {
        frameControl = try reader.readLE16("802.11 frame control")
        duration = try reader.readLE16("802.11 duration")
        destination = try reader.readMAC("802.11 address 1")
        source = try reader.readMAC("802.11 address 2")
        bssid = try reader.readMAC("802.11 address 3")
        sequenceControl = try reader.readLE16("802.11 sequence control")
    }

    /// Appends the header.
    public func encode(into writer: inout ByteWriter) {
        writer.writeLE16(frameControl)
        writer.writeLE16(duration)
        writer.writeMAC(destination)
        writer.writeMAC(source)
        writer.writeMAC(bssid)
        writer.writeLE16(sequenceControl)
    }
}

/// A whole NAN management frame as carried by nl80211's `NL80211_ATTR_FRAME`: header plus SDF or NAF.
public struct NANManagementFrame: Hashable, Sendable {
    /// The 802.11 header.
    public var header: ManagementHeader
    /// The SDF or NAF.
    public var body: NANFrame

    /// Creates a frame.
    public init(header: ManagementHeader, body: NANFrame) {
        self.header = header
        self.body = body
    }

    /// Decodes a whole frame; offsets in errors count from the frame control byte.
    public init(bytes: [UInt8]) throws(NANWireError) {
        var reader = ByteReader(bytes)
        header = try ManagementHeader(reading: &reader)
        guard header.isAction else {
            throw NANWireError(
                .notThisFrame, at: 0,
                "frame control 0x\(String(header.frameControl, radix: 16)) is not a management action frame")
        }
        if header.frameControl & 0x4000 != 0 {
            // A protected frame the kernel decrypted (a protected SDF or NAF from a paired peer, keyed by its
            // NM-TK) may reach us with the protected bit still set but without its CCMP/GCMP header: its body
            // then starts with category 9 and the Wi-Fi Alliance vendor header, which an encrypted body cannot
            // (the third byte of a CCMP/GCMP header is reserved, zero). Anything else is still encrypted.
            let rest = reader.bytes[reader.index...]
            guard rest.starts(with: Self.decryptedProtectedPrefix) else {
                throw NANWireError(
                    .notThisFrame, at: 0, "frame is still encrypted (protected bit set in frame control)")
            }
        }
        body = try NANFrame(reading: &reader)
    }

    /// Category 9 (protected dual of public action), vendor specific, 50-6f-9a.
    static let decryptedProtectedPrefix: [UInt8] = [0x09, 0x09, 0x50, 0x6F, 0x9A]

    /// The whole frame as bytes.
    public func encoded() throws(NANWireError) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        header.encode(into: &writer)
        try body.encode(into: &writer)
        return writer.bytes
    }
}
