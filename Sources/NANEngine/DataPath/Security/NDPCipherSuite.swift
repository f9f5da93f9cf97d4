public import NANWire
internal import NANCrypto

/// The NAN cipher suites a data path can use, with the lengths and functions they fix (Wi-Fi Aware v4.0
/// §7.1.2): NCS-SK-128 is CCMP-128 with SHA-256, NCS-SK-256 is GCMP-256 with SHA-384. NCS-PK-PASN-128 and
/// NCS-PK-PASN-256 run the same 4-way handshake with the same lengths and functions as NCS-SK-128 and
/// NCS-SK-256, keyed by the ND-PMK of the last PASN pairing (setup or verification) with the peer instead
/// of a passphrase (as wpa_supplicant 2.12 does: `NAN_CS_IS_128` and `NAN_CS_IS_256` cover both).
public enum NDPCipherSuite: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// NCS-SK-128: CCMP-128 data protection, HMAC-SHA-256 MIC (16 bytes), KCK 16, KEK 16, TK 16.
    case sk128
    /// NCS-SK-256: GCMP-256 data protection, HMAC-SHA-384 MIC (24 bytes), KCK 24, KEK 32, TK 32.
    case sk256
    /// NCS-PK-PASN-128: as NCS-SK-128, with the PMK from NAN pairing (``NDPCredential/paired(_:)``).
    case pk128
    /// NCS-PK-PASN-256: as NCS-SK-256 (GCMP-256, SHA-384), with the PMK from NAN pairing on P-384.
    case pk256

    /// The suite for a cipher suite ID from a Cipher Suite Info attribute; nil for the others.
    public init?(_ suite: NANCipherSuite) {
        switch suite {
        case .skCCM128: self = .sk128
        case .skGCM256: self = .sk256
        case .pkPASN128: self = .pk128
        case .pkPASN256: self = .pk256
        default: return nil
        }
    }

    /// The cipher suite ID carried in the Cipher Suite Info attribute.
    public var wireValue: NANCipherSuite {
        switch self {
        case .sk128: .skCCM128
        case .sk256: .skGCM256
        case .pk128: .pkPASN128
        case .pk256: .pkPASN256
        }
    }
    /// Whether the suite is keyed by NAN pairing (NCS-PK-PASN) rather than a passphrase or PMK.
    public var isPairing: Bool { self == .pk128 || self == .pk256 }
    /// Whether the suite is one of the 256-bit ones (GCMP-256, SHA-384).
    public var is256: Bool { self == .sk256 || self == .pk256 }
    /// KCK length in bytes.
    public var kckLength: Int { is256 ? 24 : 16 }
    /// KEK length in bytes.
    public var kekLength: Int { is256 ? 32 : 16 }
    /// TK length in bytes.
    public var tkLength: Int { is256 ? 32 : 16 }
    /// MIC length in bytes (HMAC truncated to 128 or 192 bits).
    public var micLength: Int { is256 ? 24 : 16 }
    /// The IEEE 802.11 cipher suite selector of the TK, for nl80211's key cipher: 00-0F-AC:4 (CCMP-128) or
    /// 00-0F-AC:9 (GCMP-256).
    public var keyCipherSelector: UInt32 { is256 ? 0x000F_AC09 : 0x000F_AC04 }

    /// `NCS-SK-128`, `NCS-SK-256`, `NCS-PK-PASN-128` or `NCS-PK-PASN-256`.
    public var description: String {
        switch self {
        case .sk128: "NCS-SK-128"
        case .sk256: "NCS-SK-256"
        case .pk128: "NCS-PK-PASN-128"
        case .pk256: "NCS-PK-PASN-256"
        }
    }

    /// The hash of the suite's PBKDF2, KDF, PMKID, MIC and authentication token (and, for the pairing
    /// suites, of the NAN KDFs over the PASN KDK).
    var hash: HashFunction { is256 ? .sha384 : .sha256 }
}
