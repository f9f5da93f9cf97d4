/// A NAN Service ID: the first 6 bytes of SHA-256 over the lower-cased service name.
///
/// NANWire has no cryptography; derive an ID from a name with `ServiceID(serviceName:)` in NANCrypto
/// (libcrypto SHA-256), or build one from known bytes here.
public struct ServiceID: Hashable, Sendable, CustomStringConvertible {
    /// The six bytes, as transmitted.
    public let octets: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    /// Creates a service ID from six bytes.
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ e: UInt8, _ f: UInt8) {
        octets = (a, b, c, d, e, f)
    }

    /// Creates a service ID from exactly six bytes (`nil` otherwise), e.g. the head of a SHA-256 digest
    /// when given `digest.prefix(6)`.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard let mac = MACAddress(bytes: bytes) else { return nil }
        octets = mac.octets
    }

    /// Parses 12 hex digits, optionally separated by `:`; `nil` if malformed.
    public init?(hex: String) {
        guard let bytes = Hex.bytes(hex, separators: ":"), bytes.count == 6 else { return nil }
        self.init(bytes: bytes)
    }

    /// The six bytes as an array.
    public var bytes: [UInt8] { [octets.0, octets.1, octets.2, octets.3, octets.4, octets.5] }

    /// Twelve lower-case hex digits.
    public var description: String { Hex.string(bytes) }

    /// Equality by bytes.
    public static func == (lhs: ServiceID, rhs: ServiceID) -> Bool { lhs.octets == rhs.octets }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(octets.0); hasher.combine(octets.1); hasher.combine(octets.2)
        hasher.combine(octets.3); hasher.combine(octets.4); hasher.combine(octets.5)
    }
}
