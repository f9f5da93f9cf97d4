internal import NANCrypto
internal import NANWire

/// The SHA-256 of a certificate's DER encoding: what a paired device's certificate is pinned by.
/// Its text form is 64 lower-case hex digits (as `openssl x509 -outform DER | sha256sum` prints it).
/// The API's face of NANCrypto's `CertificateFingerprint`, which it wraps.
public struct WACertificateFingerprint: Hashable, Sendable, CustomStringConvertible {
    let value: CertificateFingerprint

    /// The 32 digest bytes.
    public var bytes: [UInt8] { value.bytes }

    /// Wraps 32 digest bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard let value = CertificateFingerprint(bytes: bytes) else { return nil }
        self.value = value
    }

    /// Parses 64 hex digits, optionally with `:` between bytes; nil for anything else.
    public init?(hex text: some StringProtocol) {
        guard let value = CertificateFingerprint(hex: text) else { return nil }
        self.value = value
    }

    /// The fingerprint NANCrypto computed.
    init(_ value: CertificateFingerprint) { self.value = value }

    /// 64 lower-case hex digits.
    public var description: String { value.description }
}

/// A certificate as the peer presented it in the TLS handshake (or as this device presents its own).
/// Device certificates are self-signed: they are trusted by their ``fingerprint`` only.
public struct WAPeerCertificate: Hashable, Sendable, CustomStringConvertible {
    /// The certificate's DER encoding.
    public let der: [UInt8]
    /// The subject in OpenSSL's one-line form, e.g. `/CN=waware 6f1c…`.
    public let subject: String
    /// The subject's common name, if any.
    public let commonName: String?
    /// SHA-256 of ``der``.
    public let fingerprint: WACertificateFingerprint

    init(der: [UInt8], subject: String, commonName: String?, fingerprint: WACertificateFingerprint) {
        self.der = der
        self.subject = subject
        self.commonName = commonName
        self.fingerprint = fingerprint
    }

    /// `/CN=… fingerprint …`.
    public var description: String { "\(subject) fingerprint \(fingerprint)" }
}

/// How a TLS connection decides whether to trust the peer's certificate (TN3213's "customised trust").
///
/// The default, ``pairedDevices``, trusts only paired devices, by the certificate pinned to each one. A
/// device's pin is learned by the first TLS connection with it made over a data path keyed by its pairing
/// (NCS-PK-PASN: the data path itself proves the peer holds the pairing key, so the certificate seen over it
/// is the paired device's) and stored in its entry of the paired-device store
/// (``WAPairedDevice/certificateFingerprint``). From then on another certificate from that device is refused,
/// on both sides, whatever the data path. A new pairing with the device forgets the pin.
///
/// Unpaired peers are refused unless trust on first use was asked for (``pairedDevicesOrFirstUse``, the
/// CLI's `--tofu`): then their certificate is accepted as presented and reported
/// (``WAConnection/peerCertificate``), but not stored, since an unpaired peer has no entry to pin it to.
/// ``custom(_:)`` replaces all of this with the application's own decision.
public struct WAConnectionTrust: Sendable {
    /// Why a peer's certificate was trusted.
    public enum Basis: String, Hashable, Sendable, CustomStringConvertible {
        /// It is the certificate pinned to the paired device.
        case pinned
        /// The paired device had no pin yet; the data path keyed by its pairing vouched for it, and it is
        /// pinned now.
        case learnedOverPairing = "learned over pairing"
        /// Trust on first use, as asked: accepted unseen, as an unpaired peer. Nothing is pinned: a paired
        /// device is only recognised by a data path keyed by its pairing, or by its pinned certificate.
        case firstUse = "first use"
        /// The application's validator accepted it.
        case validator

        /// `pinned`, `learned over pairing`, `first use`, `validator`.
        public var description: String { rawValue }
    }

    /// Whether peers are trusted on first use: unpaired peers, and peers at a paired device's address that
    /// has no pin yet over a data path not keyed by its pairing (taken as unpaired: an address proves nothing).
    public let trustsOnFirstUse: Bool
    let validator: (@Sendable (WAPeerCertificate, WAPairedDevice?) -> Bool)?

    /// Paired devices only, each by its pinned certificate (learned over a data path keyed by its pairing).
    /// The default.
    public static let pairedDevices = WAConnectionTrust(trustsOnFirstUse: false, validator: nil)

    /// As ``pairedDevices``, and peers without a pin (unpaired ones, or a paired device's address without a
    /// pin over a data path not keyed by its pairing) are trusted on first use, as unpaired peers: nothing
    /// is pinned. Only when the user asked for it.
    public static let pairedDevicesOrFirstUse = WAConnectionTrust(trustsOnFirstUse: true, validator: nil)

    /// The application decides (Apple's TN3213 verify block): `validator` gets the peer's certificate and
    /// the paired device the data path comes from (nil for an unpaired peer) and returns whether to trust
    /// it. It runs during the handshake and must be quick. Pins are neither checked nor learned.
    public static func custom(
        _ validator: @escaping @Sendable (WAPeerCertificate, WAPairedDevice?) -> Bool
    ) -> WAConnectionTrust {
        WAConnectionTrust(trustsOnFirstUse: false, validator: validator)
    }

    /// What the trust says about `certificate` from `device` (nil: not a paired device) over a data path
    /// keyed by that device's pairing or not.
    func verdict(
        on certificate: WAPeerCertificate, from device: WAPairedDevice?, peer: MACAddress,
        dataPathKeyedByPairing: Bool
    ) -> TrustVerdict {
        if let validator {
            return validator(certificate, device)
                ? .trusted(.validator)
                : .refused(
                    "the application's validator refused the peer's certificate (fingerprint \(certificate.fingerprint))"
                )
        }
        guard let device else {
            if trustsOnFirstUse { return .trusted(.firstUse) }
            return .refused(
                "\(peer) is not a paired device (certificate fingerprint \(certificate.fingerprint)): "
                    + "pair with it first, or ask for trust on first use (--tofu)")
        }
        if let pinned = device.certificateFingerprint {
            if pinned == certificate.fingerprint { return .trusted(.pinned) }
            return .refused(
                "paired device '\(device.displayName)' presented certificate \(certificate.fingerprint), not the one "
                    + "pinned to it (\(pinned)); if its identity was replaced on purpose, pair with it again")
        }
        if dataPathKeyedByPairing { return .learn(.learnedOverPairing) }
        // Only the data path's key proves which device this is; its address is the peer's own say. Trusted
        // on first use as any unpaired peer: nothing pinned to the device, and the connection not its.
        if trustsOnFirstUse { return .trusted(.firstUse) }
        return .refused(
            "paired device '\(device.displayName)' has no certificate pinned yet and this data path is not keyed by "
                + "its pairing (NCS-PK-PASN), so its certificate cannot be learned: connect once over the paired data path "
                + "(no --passphrase, --pmk or --open), or ask for trust on first use (--tofu)")
    }
}

/// The outcome of ``WAConnectionTrust/verdict(on:from:peer:dataPathKeyedByPairing:)``.
enum TrustVerdict: Hashable, Sendable {
    /// Trusted; nothing to store.
    case trusted(WAConnectionTrust.Basis)
    /// Trusted; pin the certificate to the paired device once the handshake has finished.
    case learn(WAConnectionTrust.Basis)
    /// Refused, with the reason a user reads.
    case refused(String)
}
