public import NANWire

/// The keys PASN derives (IEEE 802.11-2024 §12.13.8): KCK (32 bytes whatever the hash, keys the frame
/// MICs), TK (the cipher's key length: 16 for CCMP-128, 32 for GCMP-256) and KDK (key derivation key,
/// 32 bytes; Wi-Fi Aware pairing derives its KEK, the opportunistic NPK and the ND-PMK from it). Never
/// printed.
public struct PASNKeys: Sendable, CustomStringConvertible {
    /// Key confirmation key.
    public let kck: [UInt8]
    /// Temporal key.
    public let tk: [UInt8]
    /// Key derivation key.
    public let kdk: [UInt8]
    /// Redacted.
    public var description: String { "PASNKeys(redacted)" }
}

/// PASN's key schedule, MIC and frame hash with SHA-256 or SHA-384; every HMAC and digest by libcrypto.
/// The hash is the base AKM's (SHA-256 for SAE, 00-0F-AC:8) or, with no base AKM (00-0F-AC:21), SHA-384
/// for the GCMP-256 pairwise cipher and SHA-256 otherwise (§12.13.8, as hostap's `pasn_use_sha384`).
public enum PASNKeyDerivation {
    /// The length of the KCK, whatever the hash (hostap's `WPA_PASN_KCK_LEN`).
    public static let kckLength = 32

    /// The PMK of PASN without a base AKM and without a cached PMKSA: "PMKz" and 28 zero bytes (the
    /// default PMK of IEEE 802.11-2024 §12.13.8, as hostap's `pasn_default_pmk` pads it).
    public static let defaultPMK: [UInt8] = Array("PMKz".utf8) + [UInt8](repeating: 0, count: 28)

    /// PASN-PTK = KDF-Hash(PMK, "PASN PTK Derivation", SPA ‖ BSSID ‖ DHss), split KCK (32) ‖ TK ‖ KDK
    /// (no KEK: Wi-Fi Aware pairing does not ask for a PTK-KEK). In pairing SPA is the initiator's NMI and
    /// BSSID the responder's.
    public static func keys(
        _ hash: HashFunction = .sha256, pmk: [UInt8], initiator: MACAddress, responder: MACAddress,
        sharedSecret: [UInt8], tkLength: Int = 16, kdkLength: Int = 32
    ) throws(CryptoError) -> PASNKeys {
        guard !pmk.isEmpty, !sharedSecret.isEmpty else {
            throw CryptoError(.invalidLength, "PASN PTK: empty PMK or DHss")
        }
        let material = try IEEE80211KDF.derive(
            hash, key: pmk, label: "PASN PTK Derivation",
            context: initiator.bytes + responder.bytes + sharedSecret,
            length: kckLength + tkLength + kdkLength)
        return PASNKeys(
            kck: Array(material[0..<kckLength]), tk: Array(material[kckLength..<(kckLength + tkLength)]),
            kdk: Array(material[(kckLength + tkLength)...]))
    }

    /// The MIC length with `hash`: 16 bytes (SHA-256) or 24 (SHA-384).
    public static func micLength(_ hash: HashFunction) -> Int { hash == .sha384 ? 24 : 16 }

    /// The MIC of a PASN frame: HMAC-Hash(KCK, first ‖ second ‖ data ‖ frame) truncated to
    /// ``micLength(_:)``, `frame` the whole Authentication frame body with the MIC field zeroed. Frame 2:
    /// first = responder, data = its RSNE ‖ RSNXE; frame 3: first = initiator, data = the hash of frame 1's body.
    public static func mic(
        _ hash: HashFunction = .sha256, kck: [UInt8], first: MACAddress, second: MACAddress,
        data: [UInt8], frame: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard kck.count == kckLength else { throw CryptoError(.invalidLength, "PASN MIC: KCK of \(kck.count) bytes") }
        return Array(
            try HMAC.compute(hash, key: kck, message: first.bytes + second.bytes + data + frame).prefix(micLength(hash))
        )
    }
}
