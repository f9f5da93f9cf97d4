/// A NAN service instance ID (publish ID, subscribe ID, requestor instance ID).
///
/// On the wire any value is possible; 0 means "none" (e.g. a Requestor Instance ID of 0 in an
/// unsolicited publish) and is never valid as the ID of a local instance.
public struct InstanceID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The raw byte.
    public let rawValue: UInt8

    /// Wraps a raw byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Wraps a raw byte.
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }
    /// Wraps an integer literal.
    public init(integerLiteral value: UInt8) { self.rawValue = value }

    /// The "no instance" value 0.
    public static let none = InstanceID(0)
    /// Whether this may name a local publish or subscribe instance (not 0).
    public var isValidLocalID: Bool { rawValue != 0 }

    /// The decimal value.
    public var description: String { String(rawValue) }
    /// Orders by raw value.
    public static func < (lhs: InstanceID, rhs: InstanceID) -> Bool { lhs.rawValue < rhs.rawValue }
}
