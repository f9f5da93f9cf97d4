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
    public init(passphrase: String, suite: NDPCipherSuite, serviceID: ServiceID, publisherNMI: MACAddress) throws(NDPSecurityError) {
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
/// publisher, so it is derived when they are known) or a raw PMK.
public enum NDPCredential: Hashable, Sendable, CustomStringConvertible {
    /// A passphrase, 1 to 63 bytes of UTF-8.
    case passphrase(String)
    /// A raw 32-byte PMK.
    case pmk(NDPPairwiseMasterKey)

    /// The PMK for `suite`, `serviceID` and the publisher's NMI.
    public func pairwiseMasterKey(suite: NDPCipherSuite, serviceID: ServiceID, publisherNMI: MACAddress) throws(NDPSecurityError) -> NDPPairwiseMasterKey {
        switch self {
        case .passphrase(let text): try NDPPairwiseMasterKey(passphrase: text, suite: suite, serviceID: serviceID, publisherNMI: publisherNMI)
        case .pmk(let key): key
        }
    }

    /// `passphrase` or `PMK`: never the secret.
    public var description: String {
        switch self {
        case .passphrase: "passphrase"
        case .pmk: "PMK"
        }
    }
}
