public import FoundationEssentials
public import NANWire

/// A peer device this machine has paired with (NAN pairing, with keys) or been told to trust by address
/// (no keys), modelled on Apple's `WAPairedDevice`.
///
/// Devices live in a ``WADeviceStore``. Watch them with ``allDevices`` or
/// ``allDevices(matching:)``, and choose which ones a session accepts with ``WADeviceSelection``.
public struct WAPairedDevice: Identifiable, Hashable, Sendable {
    /// All paired devices, keyed by id (Apple's `WAPairedDevice.Devices`).
    public typealias Devices = [ID: WAPairedDevice]

    /// A paired device's stable identity; it never changes, even when the name or addresses do.
    public struct ID: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The identifier as a UUID.
        public let uuid: UUID

        /// Wraps an existing UUID.
        ///
        /// - Parameter uuid: The identifier.
        public init(_ uuid: UUID) { self.uuid = uuid }

        /// Parses the text form, e.g. `6F1C2B4E-0D1A-4C6E-9B7A-2E5D3F4A1B2C` (either case).
        ///
        /// - Parameter text: The identifier's text.
        public init?(_ text: String) {
            guard let uuid = UUID(uuidString: text) else { return nil }
            self.uuid = uuid
        }

        /// Lower-case UUID text.
        public var description: String { uuid.uuidString.lowercased() }

        /// Orders ids by their text, so listings are stable.
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.description < rhs.description }
    }

    /// What the peer said about itself when it paired (Apple's `WAPairedDevice.PairingInfo`).
    ///
    /// The peer sends these unauthenticated; show them to users, but never trust them for decisions.
    public struct PairingInfo: Hashable, Sendable {
        /// The manufacturer's name, e.g. "Acme".
        public let vendorName: String?
        /// The product's model name, e.g. "Speaker 2".
        public let modelName: String?

        /// The longest vendor or model name, in UTF-8 bytes (as in DNS-SD TXT records).
        public static let maximumLength = 63

        /// Creates pairing information.
        ///
        /// - Parameters:
        ///   - vendorName: The manufacturer's name.
        ///   - modelName: The model name.
        /// - Throws: ``WAError/Code/invalidArgument`` if a name is longer than 63 UTF-8 bytes or empty.
        public init(vendorName: String? = nil, modelName: String? = nil) throws(WAError) {
            for (label, value) in [("vendor name", vendorName), ("model name", modelName)] {
                guard let value else { continue }
                guard !value.isEmpty, value.utf8.count <= Self.maximumLength else {
                    throw WAError(
                        .invalidArgument,
                        message:
                            "the \(label) must be 1 to \(Self.maximumLength) bytes of UTF-8, not \(value.utf8.count)")
                }
            }
            self.vendorName = vendorName
            self.modelName = modelName
        }
    }

    /// The peer's NAN Identity Key (NIK), which NAN pairing records so that a peer can be recognised
    /// behind its changing random addresses (and, in the store's header, this machine's own NIK).
    public struct IdentityKey: Hashable, Sendable, CustomStringConvertible {
        /// The key's 16 bytes.
        public let bytes: [UInt8]

        /// Wraps a key.
        ///
        /// - Parameter bytes: Exactly 16 bytes.
        /// - Throws: ``WAError/Code/invalidArgument`` if the length is wrong.
        public init(bytes: [UInt8]) throws(WAError) {
            guard bytes.count == 16 else {
                throw WAError(.invalidArgument, message: "a NAN identity key is 16 bytes, not \(bytes.count)")
            }
            self.bytes = bytes
        }

        /// Never the key itself, so that logs do not leak it.
        public var description: String { "IdentityKey(16 bytes)" }
    }

    /// The NAN pairing key (NPK) a PASN pairing left with the peer, the AKM and the cipher suite it was
    /// made with: what verifies the peer later without the user, and what secures paired data paths (on
    /// the same suite). Never printed.
    public struct PairingKey: Hashable, Sendable, CustomStringConvertible {
        /// The NPK's 32 bytes.
        public let bytes: [UInt8]
        /// `SAE` (PIN or passphrase pairing) or `PASN` (opportunistic pairing).
        public let method: Method
        /// NCS-PK-PASN-128 or NCS-PK-PASN-256: verification and the data paths it keys use it.
        public let cipherSuite: WACipherSuite

        /// How the pairing was set up.
        public enum Method: String, Hashable, Sendable {
            /// SAE with a PIN or passphrase.
            case sae = "SAE"
            /// Opportunistic (no password).
            case pasn = "PASN"
        }

        /// Wraps a key.
        ///
        /// - Throws: ``WAError/Code/invalidArgument`` unless `bytes` is 32 bytes and `cipherSuite` a
        ///   pairing suite.
        public init(bytes: [UInt8], method: Method, cipherSuite: WACipherSuite = .ncsPKPASN128) throws(WAError) {
            guard bytes.count == 32 else {
                throw WAError(.invalidArgument, message: "a NAN pairing key is 32 bytes, not \(bytes.count)")
            }
            guard cipherSuite.isPairing else {
                throw WAError(.invalidArgument, message: "\(cipherSuite) is not a NAN pairing cipher suite")
            }
            self.bytes = bytes
            self.method = method
            self.cipherSuite = cipherSuite
        }

        /// Never the key itself.
        public var description: String { "PairingKey(\(method.rawValue), \(cipherSuite), 32 bytes)" }
    }

    /// The stable identity.
    public let id: ID
    /// The user-visible name, unique within a store: always set for a stored device.
    public internal(set) var displayName: String
    /// The user-visible name (Apple's `name`, optional there because a device may not have told one; a
    /// device in a waware store always has one: ``displayName``).
    public var name: String? { displayName }
    /// What the peer said about itself when pairing, if anything.
    public internal(set) var pairingInfo: PairingInfo?
    /// The peer's NAN management interface (NMI) addresses, at least one.
    public internal(set) var managementAddresses: [MACAddress]
    /// The peer's identity key, once NAN pairing records one.
    public internal(set) var identityKey: IdentityKey?
    /// When the device was added to the store.
    public let dateAdded: Date
    /// The pairing key, when the device was paired with NAN pairing (nil for an entry typed by hand).
    public internal(set) var pairingKey: PairingKey? = nil
    /// The fingerprint of the device's TLS certificate, pinned by the first TLS connection with it over a data
    /// path keyed by its pairing (or trusted on first use when asked); connections refuse any other
    /// certificate from it. Nil until then; a new pairing forgets it. See ``WAConnectionTrust``.
    public internal(set) var certificateFingerprint: WACertificateFingerprint? = nil
    /// When this device was last recognised (verified, or found by its address or NIRA in a session that
    /// names paired devices); nil until then. Written at most once a minute per device by a running system.
    public internal(set) var dateLastSeen: Date? = nil
    /// When the identity key stops naming the device: the lifetime the peer announced with its NIK when
    /// pairing (waware announces 30 days), counted from then. Nil when none was announced (or for entries
    /// stored before it was kept): the key then does not expire. After it, a NIRA made with the key no
    /// longer recognises the device at a new address; pairing again gives a fresh key.
    public internal(set) var identityKeyExpiry: Date? = nil

    /// The identity key while it is valid at `now` (see ``identityKeyExpiry``); nil once it has expired.
    public func identityKey(validAt now: Date) -> IdentityKey? {
        if let identityKeyExpiry, now >= identityKeyExpiry { return nil }
        return identityKey
    }

    /// Whether NAN pairing made this entry (it holds a pairing key), rather than a hand-typed address.
    public var isVerified: Bool { pairingKey != nil }

    /// Whether the entry holds neither a pairing key nor an identity key: typed by hand, known only by an
    /// address the peer chooses, so the first pairing at that address may take it over.
    var holdsNoKey: Bool { pairingKey == nil && identityKey == nil }
}

extension WAPairedDevice {
    /// The longest device name, in UTF-8 bytes.
    public static let maximumNameLength = 64

    /// Whether `scalar` shows as nothing (or moves the text) on a terminal: controls (C0, DEL, C1), format
    /// characters (bidi overrides and isolates, zero-width spaces and joiners, BOM), line and paragraph separators.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// What a name looks like: invisible characters removed, every run of whitespace (no-break, ideographic,
    /// tab ...) one space, trimmed. Two names with the same look-alike key cannot be told apart on screen.
    static func lookalikeKey(_ name: String) -> String {
        var key = ""
        var pendingSpace = false
        for scalar in name.unicodeScalars where !isInvisible(scalar) {
            if scalar.properties.isWhitespace {
                pendingSpace = !key.isEmpty
                continue
            }
            if pendingSpace { key.append(" ") }
            pendingSpace = false
            key.unicodeScalars.append(scalar)
        }
        return key
    }

    /// Checks a user-visible device name: 1-64 bytes of UTF-8, no control, bidi or zero-width characters,
    /// no leading or trailing spaces.
    public static func validateName(_ name: String) throws(WAError) {
        guard !name.isEmpty else {
            throw WAError(.invalidArgument, message: "a device name must not be empty")
        }
        guard name.utf8.count <= maximumNameLength else {
            throw WAError(
                .invalidArgument,
                message: "the device name is \(name.utf8.count) bytes; at most \(maximumNameLength) are allowed")
        }
        guard !name.unicodeScalars.contains(where: isInvisible) else {
            throw WAError(
                .invalidArgument,
                message: "the device name must not contain control, line-break, bidi or zero-width characters")
        }
        guard name.first?.isWhitespace == false, name.last?.isWhitespace == false else {
            throw WAError(.invalidArgument, message: "the device name must not begin or end with a space")
        }
    }
}
