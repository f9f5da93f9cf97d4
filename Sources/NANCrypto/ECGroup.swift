internal import CCrypto

/// The elliptic-curve groups NAN pairing runs PASN and SAE on (IKE group numbers, RFC 5903): group 19
/// (NIST P-256) for NCS-PK-PASN-128, group 20 (NIST P-384) for NCS-PK-PASN-256. Each fixes the length of
/// a field element and a scalar, the hash SAE uses with it (IEEE 802.11-2020 Table 12-1: SHA-256 for a
/// prime up to 256 bits, SHA-384 up to 384), and the Z of the simplified SWU map (RFC 9380 §8.2–§8.3).
public enum ECGroup: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// IKE group 19, NIST P-256.
    case p256
    /// IKE group 20, NIST P-384.
    case p384

    /// The group for an IKE group number; nil for the others.
    public init?(ikeGroup: UInt16) {
        switch ikeGroup {
        case 19: self = .p256
        case 20: self = .p384
        default: return nil
        }
    }

    /// The IKE group number (19 or 20), as SAE commits and PASN Parameters carry it.
    public var ikeGroup: UInt16 {
        switch self {
        case .p256: 19
        case .p384: 20
        }
    }

    /// The length in bytes of a field element, a scalar and DHss (32 or 48).
    public var length: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        }
    }

    /// SAE's hash with this group (hash-to-element, keyseed, KCK and confirm).
    public var hash: HashFunction {
        switch self {
        case .p256: .sha256
        case .p384: .sha384
        }
    }

    /// |Z| of the simplified SWU map (Z = −10 for P-256, −12 for P-384).
    var swuZ: UInt {
        switch self {
        case .p256: 10
        case .p384: 12
        }
    }

    /// libcrypto's curve NID.
    var nid: Int32 {
        switch self {
        case .p256: NID_X9_62_prime256v1
        case .p384: NID_secp384r1
        }
    }

    /// `P-256` or `P-384`.
    public var description: String {
        switch self {
        case .p256: "P-256"
        case .p384: "P-384"
        }
    }
}
