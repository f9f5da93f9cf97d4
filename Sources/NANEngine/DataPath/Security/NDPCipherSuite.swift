public import NANWire
internal import NANCrypto

/// The NAN shared-key cipher suites a data path can use, with the lengths and functions they fix
/// (Wi-Fi Aware v4.0 §7.1.2): NCS-SK-128 is CCMP-128 with SHA-256, NCS-SK-256 is GCMP-256 with SHA-384.
public enum NDPCipherSuite: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// NCS-SK-128: CCMP-128 data protection, HMAC-SHA-256 MIC (16 bytes), KCK 16, KEK 16, TK 16.
    case sk128
    /// NCS-SK-256: GCMP-256 data protection, HMAC-SHA-384 MIC (24 bytes), KCK 24, KEK 32, TK 32.
    case sk256

    /// The suite for a cipher suite ID from a Cipher Suite Info attribute; nil for the others.
    public init?(_ suite: NANCipherSuite) {
        switch suite {
        case .skCCM128: self = .sk128
        case .skGCM256: self = .sk256
        default: return nil
        }
    }

    /// The cipher suite ID carried in the Cipher Suite Info attribute.
    public var wireValue: NANCipherSuite { self == .sk128 ? .skCCM128 : .skGCM256 }
    /// KCK length in bytes.
    public var kckLength: Int { self == .sk128 ? 16 : 24 }
    /// KEK length in bytes.
    public var kekLength: Int { self == .sk128 ? 16 : 32 }
    /// TK length in bytes.
    public var tkLength: Int { self == .sk128 ? 16 : 32 }
    /// MIC length in bytes (HMAC truncated to 128 or 192 bits).
    public var micLength: Int { self == .sk128 ? 16 : 24 }
    /// The IEEE 802.11 cipher suite selector of the TK, for nl80211's key cipher: 00-0F-AC:4 (CCMP-128) or
    /// 00-0F-AC:9 (GCMP-256).
    public var keyCipherSelector: UInt32 { self == .sk128 ? 0x000F_AC04 : 0x000F_AC09 }

    /// `NCS-SK-128` or `NCS-SK-256`.
    public var description: String { self == .sk128 ? "NCS-SK-128" : "NCS-SK-256" }

    /// The hash of the suite's PBKDF2, KDF, PMKID, MIC and authentication token.
    var hash: HashFunction { self == .sk128 ? .sha256 : .sha384 }
}
