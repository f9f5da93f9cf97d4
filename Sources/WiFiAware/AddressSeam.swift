// The one place in WiFiAware that knows how a peer's NAN management address is represented.
// Until NANWire's typed `MACAddress` is merged, a minimal stand-in lives here; the rest of the
// module reaches addresses only through the three internal functions at the bottom.

/// A 48-bit IEEE MAC address, such as a peer's NAN management interface (NMI) address.
///
/// Temporary stand-in until NANWire's `MACAddress` is available.
public struct MACAddress: Hashable, Sendable, CustomStringConvertible {
    /// The six octets, most significant first.
    public let octets: [UInt8]

    /// Parses `aa:bb:cc:dd:ee:ff` (hex digits, either case; `-` also accepted as separator).
    ///
    /// - Parameter string: The text to parse.
    /// - Returns: `nil` if the text is not six two-digit hex octets.
    public init?(_ string: String) {
        let parts = string.split(separator: ":", omittingEmptySubsequences: false)
        let pieces = parts.count == 6 ? parts : string.split(separator: "-", omittingEmptySubsequences: false)
        guard pieces.count == 6 else { return nil }
        var octets: [UInt8] = []
        for piece in pieces {
            guard piece.count == 2, let value = UInt8(piece, radix: 16) else { return nil }
            octets.append(value)
        }
        self.octets = octets
    }

    /// Lower-case colon-separated hex, e.g. `02:00:00:00:01:00`.
    public var description: String {
        octets.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}

/// Parses an address as stored in files and typed on the command line.
func parsePeerAddress(_ text: String) -> MACAddress? {
    MACAddress(text)
}

/// The canonical text of an address, as stored in files.
func peerAddressText(_ address: MACAddress) -> String {
    address.description
}

/// Whether the address is a group (multicast or broadcast) address, which can never name a peer.
func isGroupAddress(_ address: MACAddress) -> Bool {
    (address.octets.first ?? 0) & 0x01 != 0
}
