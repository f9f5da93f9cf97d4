public import NANWire

/// The keys PASN derives (IEEE 802.11-2024 §12.13.8, SHA-256 for group 19 with CCMP-128): KCK (32 bytes,
/// keys the frame MICs), TK (the cipher's key length) and KDK (key derivation key, 32 bytes; Wi-Fi Aware
/// pairing derives its KEK, the opportunistic NPK and the ND-PMK from it). Never printed.
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

/// PASN's key schedule and MIC with SHA-256; every HMAC by libcrypto.
public enum PASNKeyDerivation {
    /// The PMK of PASN without a base AKM and without a cached PMKSA: "PMKz" and 28 zero bytes (the
    /// default PMK of IEEE 802.11-2024 §12.13.8, as hostap's `pasn_default_pmk` pads it).
    public static let defaultPMK: [UInt8] = Array("PMKz".utf8) + [UInt8](repeating: 0, count: 28)

    /// PASN-PTK = KDF-SHA-256(PMK, "PASN PTK Derivation", SPA ‖ BSSID ‖ DHss), split KCK (32) ‖ TK ‖ KDK
    /// (no KEK: Wi-Fi Aware pairing does not ask for a PTK-KEK). In pairing SPA is the initiator's NMI and
    /// BSSID the responder's.
    public static func keys(pmk: [UInt8], initiator: MACAddress, responder: MACAddress, sharedSecret: [UInt8],
                            tkLength: Int = 16, kdkLength: Int = 32) throws(CryptoError) -> PASNKeys {
        guard !pmk.isEmpty, !sharedSecret.isEmpty else { throw CryptoError(.invalidLength, "PASN PTK: empty PMK or DHss") }
        let material = try IEEE80211KDF.derive(.sha256, key: pmk, label: "PASN PTK Derivation",
                                               context: initiator.bytes + responder.bytes + sharedSecret,
                                               length: 32 + tkLength + kdkLength)
        return PASNKeys(kck: Array(material[0..<32]), tk: Array(material[32..<(32 + tkLength)]),
                        kdk: Array(material[(32 + tkLength)...]))
    }

    /// The 16-byte MIC of a PASN frame: Truncate-128(HMAC-SHA-256(KCK, first ‖ second ‖ data ‖ frame)),
    /// `frame` the whole Authentication frame body with the MIC field zeroed. Frame 2: first = responder,
    /// data = its RSNE ‖ RSNXE; frame 3: first = initiator, data = SHA-256 of frame 1's body.
    public static func mic(kck: [UInt8], first: MACAddress, second: MACAddress, data: [UInt8], frame: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard kck.count == 32 else { throw CryptoError(.invalidLength, "PASN MIC: KCK of \(kck.count) bytes") }
        return Array(try HMAC.sha256(key: kck, message: first.bytes + second.bytes + data + frame).prefix(16))
    }
}
