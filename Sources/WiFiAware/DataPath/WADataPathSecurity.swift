import NANEngine
import NANCrypto
import NANWire

/// How a data path is protected: NCS-PK-PASN with the pairing key of a paired device (``pairing``, the
/// default between paired devices in the CLI), NCS-SK with a passphrase or a PMK, or open (which must be
/// asked for explicitly).
public struct WADataPathSecurity: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case open
        case passphrase(String)
        case pmk([UInt8])
        case pairing
    }
    let kind: Kind
    /// The NCS-SK suites: a requester asks for the first, a publisher accepts any of them.
    public private(set) var cipherSuites: [WACipherSuite]

    /// No encryption: anyone in range can read the traffic. Use only on a trusted air or with TLS on top.
    public static let open = WADataPathSecurity(kind: .open, cipherSuites: [])

    /// NCS-SK with a PMK derived from `passphrase` (1 to 63 bytes of UTF-8), as Wi-Fi Aware and
    /// wpa_supplicant derive it (PBKDF2 salted with the suite, the service and the publisher).
    /// `cipherSuites`: a requester asks for the first; a publisher accepts any (default: both, 128 first).
    public static func passphrase(
        _ passphrase: String, cipherSuites: [WACipherSuite] = [.ncsSK128, .ncsSK256]
    ) -> WADataPathSecurity {
        WADataPathSecurity(kind: .passphrase(passphrase), cipherSuites: cipherSuites)
    }

    /// NCS-PK-PASN-128 or -256 (the suite the device paired with) with the pairing key (NPK) of a paired
    /// device, no passphrase: before the data path the requester verifies the peer with PASN keyed by the
    /// stored NPK (the peer answers by itself), and the ND-PMK that verification derives keys the data
    /// path's 4-way handshake on the pairing's suite (Wi-Fi Aware 4.0, as wpa_supplicant 2.12 does it). A
    /// publisher accepting it takes requests only from paired devices that verified in this session, on the
    /// suite of that pairing; a device whose pairing key differs fails verification and is refused on both
    /// sides.
    public static let pairing = WADataPathSecurity(kind: .pairing, cipherSuites: [.ncsPKPASN128, .ncsPKPASN256])

    /// NCS-SK with a raw 32-byte PMK; `cipherSuites` as for ``passphrase(_:cipherSuites:)``.
    public static func pmk(
        _ bytes: [UInt8], cipherSuites: [WACipherSuite] = [.ncsSK128, .ncsSK256]
    ) -> WADataPathSecurity {
        WADataPathSecurity(kind: .pmk(bytes), cipherSuites: cipherSuites)
    }

    /// Whether this is an open data path.
    public var isOpen: Bool { kind == .open }
    /// Whether this is keyed by NAN pairing (``pairing``).
    public var isPairing: Bool { kind == .pairing }

    /// `open`, `passphrase`, `pmk` or `pairing` (never the secret).
    public var description: String {
        switch kind {
        case .open: "open"
        case .pairing: "pairing"
        case .passphrase: "passphrase"
        case .pmk: "pmk"
        }
    }

    /// Refuses a credential that cannot be used, in one line: a passphrase not 1 to 63 bytes, a PMK not
    /// 32 bytes, no cipher suite.
    func check() throws(WAError) {
        switch kind {
        case .open, .pairing: return
        case .passphrase(let text):
            guard (1...63).contains(text.utf8.count) else {
                throw WAError(
                    .invalidArgument, message: "a data-path passphrase is 1 to 63 bytes, not \(text.utf8.count)")
            }
        case .pmk(let bytes):
            guard bytes.count == 32 else {
                throw WAError(.invalidArgument, message: "a data-path PMK is 32 bytes, not \(bytes.count)")
            }
        }
        guard !cipherSuites.isEmpty else {
            throw WAError(.invalidArgument, message: "a secure data path needs a cipher suite")
        }
    }

    /// The engine's policy for `service` (whose ID salts the passphrase's PMK and enters the PMKID); nil for
    /// an open data path. `pairedKeys`: where pairing leaves the ND-PMKs (for ``pairing``); `peer`: the
    /// requester's peer, whose pairing's suite it asks for.
    func policy(
        service: String, pairedKeys: PairedDataPathKeys? = nil, peer: MACAddress? = nil
    ) throws(WAError) -> NDPSecurityPolicy? {
        try check()
        let credential: NDPCredential
        switch kind {
        case .open: return nil
        case .pairing:
            guard let pairedKeys else {
                throw WAError(
                    .invalidArgument,
                    message: "a data path keyed by pairing needs a device that has paired (`waware pair`)")
            }
            credential = .paired(pairedKeys)
        case .passphrase(let text): credential = .passphrase(text)
        case .pmk(let bytes):
            do { credential = .pmk(try NDPPairwiseMasterKey(bytes: bytes)) } catch {
                throw WAError(.invalidArgument, message: "a data-path PMK is 32 bytes, not \(bytes.count)")
            }
        }
        let serviceID: ServiceID
        do { serviceID = try ServiceID(serviceName: service) } catch {
            throw WAError(.invalidArgument, message: "service name \(service): \(error)")
        }
        var suites = cipherSuites.map(\.suite)
        if kind == .pairing, let peer, let paired = pairedKeys?.suite(for: peer) {
            suites = [paired] + suites.filter { $0 != paired }
        }
        return NDPSecurityPolicy(credential: credential, suites: suites, serviceID: serviceID)
    }
}

/// A NAN cipher suite for data paths.
public enum WACipherSuite: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// NCS-SK-128: CCMP-128 on the air, SHA-256 key derivation.
    case ncsSK128 = "NCS-SK-128"
    /// NCS-SK-256: GCMP-256 on the air, SHA-384 key derivation.
    case ncsSK256 = "NCS-SK-256"
    /// NCS-PK-PASN-128: CCMP-128 on the air, keyed by NAN pairing on P-256 (``WADataPathSecurity/pairing``).
    case ncsPKPASN128 = "NCS-PK-PASN-128"
    /// NCS-PK-PASN-256: GCMP-256 on the air, SHA-384 key derivation, keyed by NAN pairing on P-384.
    case ncsPKPASN256 = "NCS-PK-PASN-256"

    /// `NCS-SK-128`, `NCS-SK-256`, `NCS-PK-PASN-128` or `NCS-PK-PASN-256`.
    public var description: String { rawValue }

    /// Whether NAN pairing sets this suite up (NCS-PK-PASN).
    public var isPairing: Bool { self == .ncsPKPASN128 || self == .ncsPKPASN256 }

    var suite: NDPCipherSuite {
        switch self {
        case .ncsSK128: .sk128
        case .ncsSK256: .sk256
        case .ncsPKPASN128: .pk128
        case .ncsPKPASN256: .pk256
        }
    }

    /// The suite for an engine suite.
    init(_ suite: NDPCipherSuite) {
        switch suite {
        case .sk128: self = .ncsSK128
        case .sk256: self = .ncsSK256
        case .pk128: self = .ncsPKPASN128
        case .pk256: self = .ncsPKPASN256
        }
    }
}
