internal import NANCrypto

/// What the NAN pairing cipher suite fixes in a PASN pairing exchange (Wi-Fi Aware 4.0 §7.6.4, as
/// wpa_supplicant 2.12's `nan_pairing_pasn_initialize` sets it up): NCS-PK-PASN-128 runs on group 19
/// (P-256) with the CCMP-128 pairwise cipher, NCS-PK-PASN-256 on group 20 (P-384) with GCMP-256. The
/// suite's hash (SHA-256 or SHA-384) keys the NAN KDFs over the PASN KDK (``PairingKeys``), SAE's own
/// hash follows the group, and PASN's hash is SHA-384 only without a base AKM over GCMP-256
/// (``pasnHash(akm:)``). The initiator chooses; the responder agrees or refuses with PASN status 42.
extension NDPCipherSuite {
    /// The suites pairing can set up.
    public static let pairingSuites: [NDPCipherSuite] = [.pk128, .pk256]

    /// The suite a pairing runs on group `group` (19 or 20); nil for other groups.
    init?(pairingGroup group: UInt16) {
        switch group {
        case 19: self = .pk128
        case 20: self = .pk256
        default: return nil
        }
    }

    /// The PASN and SAE curve: P-384 for NCS-PK-PASN-256, P-256 otherwise.
    var pairingGroup: ECGroup { self == .pk256 ? .p384 : .p256 }

    /// The RSNE pairwise cipher suite type under 00-0F-AC: 9 (GCMP-256) or 4 (CCMP-128).
    var pairwiseCipher: UInt8 { is256 ? 9 : 4 }

    /// PASN's hash for `akm`: the base AKM's (SAE: SHA-256), or with no base AKM SHA-384 for GCMP-256
    /// (IEEE 802.11-2024 §12.13.8; hostap's `pasn_use_sha384`).
    func pasnHash(akm: PairingAKM) -> HashFunction { akm == .pasn && self == .pk256 ? .sha384 : .sha256 }
}
