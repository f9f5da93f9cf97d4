// TEMPORARY: minimal stand-ins for NANWire's MACAddress, ServiceID and InstanceID (same API subset),
// so NANSystem compiles before branch `wire` lands them. Delete this file when merging `wire`.

/// A 48-bit MAC address (stand-in until NANWire provides it).
public struct MACAddress: Hashable, Sendable, CustomStringConvertible {
    /// The six octets.
    public let bytes: [UInt8]
    /// Creates an address from exactly six bytes; `nil` for any other count.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 6 else { return nil }
        self.bytes = Array(bytes)
    }
    /// Parses `aa:bb:cc:dd:ee:ff`.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard part.count == 2, let value = UInt8(part, radix: 16) else { return nil }
            octets.append(value)
        }
        bytes = octets
    }
    /// `aa:bb:cc:dd:ee:ff`.
    public var description: String {
        bytes.map { $0 < 0x10 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: ":")
    }
}

/// A NAN service ID (stand-in until NANWire provides it).
public struct ServiceID: Hashable, Sendable, CustomStringConvertible {
    /// The six bytes.
    public let bytes: [UInt8]
    /// Creates a service ID from exactly six bytes.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 6 else { return nil }
        self.bytes = Array(bytes)
    }
    /// Hex digits.
    public var description: String {
        bytes.map { $0 < 0x10 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// A NAN instance ID (stand-in until NANWire provides it).
public struct InstanceID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The id.
    public let rawValue: UInt8
    /// Wraps an id.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Decimal.
    public var description: String { String(rawValue) }
}
