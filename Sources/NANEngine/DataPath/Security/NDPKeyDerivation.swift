internal import NANCrypto
internal import NANWire

/// The PTK of one NDP, split: KCK (MICs), KEK (key data), TK (installed for the peer's NDI station).
struct NDPPairwiseTransientKey: Sendable {
    let kck: [UInt8]
    let kek: [UInt8]
    let tk: [UInt8]
}

/// The NCS-SK derivations (Wi-Fi Aware v4.0 §7.1.3–§7.1.4), each a composition of NANCrypto primitives.
enum NDPKeyDerivation {
    /// The label of the PMKID.
    static let pmkidLabel = "NAN PMK Name"
    /// The label of the PTK expansion.
    static let ptkLabel = "NAN Pairwise key expansion"
    /// PMKID and authentication token length.
    static let pmkidLength = 16

    /// ND-PMKID = first 128 bits of HMAC-Hash(PMK, "NAN PMK Name" ‖ initiator NMI ‖ responder NMI ‖ Service ID).
    static func pmkid(
        _ pmk: NDPPairwiseMasterKey, suite: NDPCipherSuite, initiatorNMI: MACAddress,
        responderNMI: MACAddress, serviceID: ServiceID
    ) throws(NDPSecurityError) -> [UInt8] {
        let message = Array(pmkidLabel.utf8) + initiatorNMI.bytes + responderNMI.bytes + serviceID.bytes
        return Array(
            try crypto("PMKID") { () throws(CryptoError) in
                try HMAC.compute(suite.hash, key: pmk.bytes, message: message)
            }.prefix(pmkidLength))
    }

    /// ND-PTK = KDF-Hash-Length(PMK, "NAN Pairwise key expansion", initiator NDI ‖ responder NDI ‖ INonce ‖
    /// RNonce), split into KCK ‖ KEK ‖ TK. The addresses are the NDIs (as wpa_supplicant 2.12 derives it;
    /// the NMIs enter only the PMKID and the PMK).
    static func ptk(
        _ pmk: NDPPairwiseMasterKey, suite: NDPCipherSuite, initiatorNDI: MACAddress, responderNDI: MACAddress,
        initiatorNonce: [UInt8], responderNonce: [UInt8]
    ) throws(NDPSecurityError) -> NDPPairwiseTransientKey {
        let context = initiatorNDI.bytes + responderNDI.bytes + initiatorNonce + responderNonce
        let length = suite.kckLength + suite.kekLength + suite.tkLength
        let bytes = try crypto("PTK") { () throws(CryptoError) in
            try IEEE80211KDF.derive(suite.hash, key: pmk.bytes, label: ptkLabel, context: context, length: length)
        }
        let kck = Array(bytes[0..<suite.kckLength])
        let kek = Array(bytes[suite.kckLength..<suite.kckLength + suite.kekLength])
        let tk = Array(bytes[(suite.kckLength + suite.kekLength)...])
        return NDPPairwiseTransientKey(kck: kck, kek: kek, tk: tk)
    }

    /// The authentication token: the first 128 bits of Hash(message 1's NAF body, from the Category field).
    /// Message 3's MIC covers it, binding the handshake to the request as sent.
    static func authenticationToken(suite: NDPCipherSuite, requestBody: [UInt8]) throws(NDPSecurityError) -> [UInt8] {
        Array(
            try crypto("authentication token") { () throws(CryptoError) in
                try Digest.hash(suite.hash, requestBody)
            }.prefix(pmkidLength))
    }

    /// The key MIC: HMAC-Hash(KCK, data) truncated to the suite's MIC length.
    static func mic(suite: NDPCipherSuite, kck: [UInt8], data: [UInt8]) throws(NDPSecurityError) -> [UInt8] {
        Array(
            try crypto("MIC") { () throws(CryptoError) in
                try HMAC.compute(suite.hash, key: kck, message: data)
            }.prefix(suite.micLength))
    }

    private static func crypto(
        _ what: String, _ body: () throws(CryptoError) -> [UInt8]
    ) throws(NDPSecurityError) -> [UInt8] {
        do { return try body() } catch { throw NDPSecurityError(.crypto, "\(what): \(error)") }
    }
}
