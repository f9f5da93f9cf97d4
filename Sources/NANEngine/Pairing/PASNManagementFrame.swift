public import NANWire

/// A whole PASN Authentication frame as it goes to and comes from nl80211: the 24-byte management header
/// (frame control 0x00B0, destination, source, BSSID = the NAN cluster ID) and the body.
public struct PASNManagementFrame: Sendable {
    /// Frame control of an Authentication frame.
    public static let frameControl: UInt16 = 0x00B0
    /// The header.
    public var header: ManagementHeader
    /// The body.
    public var body: PASNAuthenticationFrame

    /// A frame from `source` to `destination` in cluster `bssid`.
    public init(body: PASNAuthenticationFrame, destination: MACAddress, source: MACAddress, bssid: MACAddress) {
        header = ManagementHeader(
            frameControl: Self.frameControl, destination: destination, source: source, bssid: bssid)
        self.body = body
    }

    /// Decodes a whole frame; total: a typed error for another frame type or a malformed body.
    public init(bytes: [UInt8]) throws(PairingError) {
        do {
            var reader = ByteReader(bytes)
            let header = try ManagementHeader(reading: &reader)
            guard header.frameControl & 0x00FC == Self.frameControl else {
                throw PairingError(
                    .unexpectedMessage, "not an Authentication frame (frame control \(header.frameControl))")
            }
            self.header = header
            body = try PASNAuthenticationFrame(decoding: reader.readRest())
        } catch let error as PairingError {
            throw error
        } catch {
            throw PairingError(.malformed, "PASN frame: \(error)")
        }
    }

    /// The whole frame.
    public func encoded() throws(PairingError) -> [UInt8] {
        var writer = ByteWriter(capacity: 512)
        header.encode(into: &writer)
        writer.writeBytes(try PASNPairing.encoded(body))
        return writer.bytes
    }
}
