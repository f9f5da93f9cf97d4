public import NANWire
internal import NANCrypto

/// The ND-PMK of an NCS-SK data path: 32 bytes, given raw or derived from a passphrase.
public struct NDPPairwiseMasterKey: Hashable, Sendable, CustomStringConvertible {
    /// The 32 key bytes.
    public let bytes: [UInt8]

    /// A raw PMK; throws ``NDPSecurityError/Code/invalidCredential`` unless it is 32 bytes.
    public init(bytes: [UInt8]) throws(NDPSecurityError) {
        guard bytes.count == 32 else {
            throw NDPSecurityError(.invalidCredential, "a PMK is 32 bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// The NAN passphrase derivation (Wi-Fi Aware v4.0 §7.1.4.1): PBKDF2 with the suite's HMAC (SHA-256 for
    /// NCS-SK-128, SHA-384 for NCS-SK-256), 4096 iterations, 32 bytes, over the salt
    /// Cipher Suite ID (2 bytes, big-endian: 0x00, ID) ‖ Service ID (6) ‖ publisher NMI (6).
    ///
    /// The passphrase is 1 to 63 bytes of UTF-8.
    public init(
        passphrase: String, suite: NDPCipherSuite, serviceID: ServiceID, publisherNMI: MACAddress
    ) throws(NDPSecurityError) {
        let password = Array(passphrase.utf8)
        guard (1...63).contains(password.count) else {
            throw NDPSecurityError(.invalidCredential, "a passphrase is 1 to 63 bytes, not \(password.count)")
        }
        let salt = [0x00, suite.wireValue.rawValue] + serviceID.bytes + publisherNMI.bytes
        do {
            bytes = try PBKDF2.deriveKey(suite.hash, password: password, salt: salt, iterations: 4096, length: 32)
        } catch {
            throw NDPSecurityError(.crypto, "PMK from passphrase: \(error)")
        }
    }

    /// `PMK (32 bytes)`: never the key itself.
    public var description: String { "PMK (32 bytes)" }
}

/// What a data path's security is configured with: a passphrase (the PMK depends on the suite, service and
/// publisher, so it is derived when they are known), a raw PMK, or NAN pairing (NCS-PK-PASN: the ND-PMK of
/// the last PASN with the peer, looked up by its NMI).
public enum NDPCredential: Hashable, Sendable, CustomStringConvertible {
    /// A passphrase, 1 to 63 bytes of UTF-8.
    case passphrase(String)
    /// A raw 32-byte PMK.
    case pmk(NDPPairwiseMasterKey)
    /// The ND-PMKs NAN pairing left with each peer (NCS-PK-PASN suites only).
    case paired(PairedDataPathKeys)

    /// The PMK for `suite`, `serviceID`, the publisher's NMI and the peer's NMI (a paired credential's key
    /// is the peer's; none is ``NDPSecurityError/Code/pmkidMismatch``: the peer is not paired, or its
    /// pairing was not verified in this session; a pairing on another suite is
    /// ``NDPSecurityError/Code/unsupportedCipherSuite``). A pairing suite goes only with a paired credential.
    public func pairwiseMasterKey(
        suite: NDPCipherSuite, serviceID: ServiceID, publisherNMI: MACAddress,
        peerNMI: MACAddress
    ) throws(NDPSecurityError) -> NDPPairwiseMasterKey {
        switch self {
        case .paired(let keys):
            guard suite.isPairing else {
                throw NDPSecurityError(.unsupportedCipherSuite, "\(suite) is not keyed by pairing")
            }
            guard let (key, paired) = keys.entry(for: peerNMI) else {
                throw NDPSecurityError(
                    .pmkidMismatch, "no pairing verified with \(peerNMI) (not paired, or another pairing key)")
            }
            guard paired == suite else {
                throw NDPSecurityError(
                    .unsupportedCipherSuite, "the pairing with \(peerNMI) is \(paired), the data path asks for \(suite)"
                )
            }
            return key
        case _ where suite.isPairing:
            throw NDPSecurityError(.unsupportedCipherSuite, "\(suite) needs the pairing key, not a \(self)")
        case .passphrase(let text):
            return try NDPPairwiseMasterKey(
                passphrase: text, suite: suite, serviceID: serviceID, publisherNMI: publisherNMI)
        case .pmk(let key): return key
        }
    }

    /// `passphrase`, `PMK` or `pairing key`: never the secret.
    public var description: String {
        switch self {
        case .passphrase: "passphrase"
        case .pmk: "PMK"
        case .paired: "pairing key"
        }
    }
}
