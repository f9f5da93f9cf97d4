// Stand-ins for NANWire's typed values until branch `wire` is merged; deleted at that merge.

/// A 48-bit IEEE MAC address.
public struct MACAddress: Hashable, Sendable, CustomStringConvertible {
    /// The six bytes, most significant first.
    public let bytes: [UInt8]
    /// Makes an address from six bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }
    /// The broadcast address ff:ff:ff:ff:ff:ff.
    public static let broadcast = MACAddress(unchecked: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
    init(unchecked bytes: [UInt8]) { self.bytes = bytes }
    public var description: String { bytes.map { String(format2: $0) }.joined(separator: ":") }
}

extension String {
    init(format2 byte: UInt8) {
        let s = String(byte, radix: 16)
        self = s.count == 1 ? "0" + s : s
    }
}

/// The 6-byte hash of a service name.
public struct ServiceID: Hashable, Sendable {
    /// The six bytes.
    public let bytes: [UInt8]
    /// Makes a service ID from six bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }
}

/// A NAN instance ID (1...255; 0 means "none").
public struct InstanceID: Hashable, Sendable, RawRepresentable, Comparable {
    /// The raw value.
    public let rawValue: UInt8
    /// Wraps a raw value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Orders by raw value.
    public static func < (lhs: InstanceID, rhs: InstanceID) -> Bool { lhs.rawValue < rhs.rawValue }
}
