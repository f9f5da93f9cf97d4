public import NANWire

/// The security attributes one data-path NAF carries: Cipher Suite Info and Security Context Info in the
/// request and response, a Shared-Key Descriptor in all four messages.
public struct NDPSecurityAttributes: Hashable, Sendable {
    /// Cipher Suite Info (messages 1 and 2).
    public var cipherSuiteInfo: CipherSuiteInfoAttribute?
    /// Security Context Info with the ND-PMKID (messages 1 and 2).
    public var securityContextInfo: SecurityContextInfoAttribute?
    /// Shared-Key Descriptor (every message), its MIC zero until ``NDPKeyExchange/seal(_:)``.
    public var sharedKeyDescriptor: SharedKeyDescriptorAttribute

    /// Creates the set.
    public init(
        cipherSuiteInfo: CipherSuiteInfoAttribute?, securityContextInfo: SecurityContextInfoAttribute?,
        sharedKeyDescriptor: SharedKeyDescriptorAttribute
    ) {
        self.cipherSuiteInfo = cipherSuiteInfo
        self.securityContextInfo = securityContextInfo
        self.sharedKeyDescriptor = sharedKeyDescriptor
    }

    /// Puts the attributes into `message` (replacing any security attributes it had).
    public func apply(to message: inout DataPathMessage) {
        message.cipherSuiteInfo = cipherSuiteInfo
        message.securityContextInfo = securityContextInfo
        message.sharedKeyDescriptor = sharedKeyDescriptor
    }
}

/// The pairwise key to install when the handshake completes: `NEW_KEY` for the peer's NDI station with
/// this key index and cipher, then authorize the station.
public struct NDPInstallableKey: Hashable, Sendable, CustomStringConvertible {
    /// The cipher suite (CCMP-128 or GCMP-256 data protection).
    public let suite: NDPCipherSuite
    /// The TK (16 bytes for NCS-SK-128, 32 for NCS-SK-256).
    public let temporalKey: [UInt8]
    /// The key index: 0, the pairwise key.
    public let keyIndex: UInt8
    /// The local NDI.
    public let localNDI: MACAddress
    /// The peer's NDI: the station the key is for.
    public let peerNDI: MACAddress

    /// The IEEE 802.11 cipher suite selector for nl80211 (00-0F-AC:4 or 00-0F-AC:9).
    public var cipherSelector: UInt32 { suite.keyCipherSelector }

    /// E.g. `NCS-SK-128 TK for 52:00:00:00:01:00 (key 0)`: never the key itself.
    public var description: String { "\(suite) TK for \(peerNDI) (key \(keyIndex))" }
}
