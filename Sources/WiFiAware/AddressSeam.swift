internal import NANWire

// The one place in WiFiAware that turns peer addresses into text and back, so the store's file
// format does not depend on how NANWire's `MACAddress` chooses to print or parse.

/// Parses an address as stored in files and typed on the command line (`aa:bb:cc:dd:ee:ff`).
func parsePeerAddress(_ text: String) -> MACAddress? {
    MACAddress(text)
}

/// The canonical text of an address, as stored in files: lower-case, colon-separated.
func peerAddressText(_ address: MACAddress) -> String {
    address.description
}

/// Whether the address is a group (multicast or broadcast) address, which can never name a peer.
func isGroupAddress(_ address: MACAddress) -> Bool {
    address.isMulticast
}
