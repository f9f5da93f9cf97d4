/// The pairwise key of a secure data path: the TK the NCS-SK handshake derived, which the kernel side
/// installs (`NEW_KEY`) for the peer's NDI station before authorizing it, so no frame passes unencrypted.
/// The negotiation puts it in ``NDPLink/pairwiseKey`` when it asks for ``DataPathAction/establish(_:)``; a
/// link without one is open.
public struct DataPathPairwiseKey: Hashable, Sendable, CustomStringConvertible {
    /// The cipher suite the handshake agreed on (it fixes the TK's length and the kernel's cipher).
    public var cipherSuite: NDPCipherSuite
    /// The temporal key: 16 bytes for NCS-SK-128 (CCMP-128), 32 for NCS-SK-256 (GCMP-256).
    public var temporalKey: [UInt8]

    /// Creates a key; nil when the TK's length does not fit the suite.
    public init?(cipherSuite: NDPCipherSuite, temporalKey: [UInt8]) {
        guard temporalKey.count == cipherSuite.tkLength else { return nil }
        self.cipherSuite = cipherSuite
        self.temporalKey = temporalKey
    }

    /// The suite's name, never the key.
    public var description: String { "\(cipherSuite) key" }
}
