/// A validated Wi-Fi Aware service name such as `_file-share._tcp`.
///
/// The rules are Apple's (the DNS-SD service-name rules of RFC 6335 as Apple applies them):
/// the name is `_` + a label + `._tcp` or `._udp`, and the label
/// - is 1 to 15 characters long,
/// - uses only ASCII letters, digits and `-`,
/// - contains at least one letter,
/// - neither begins nor ends with `-`.
///
/// Names compare exactly as written. Both ends derive the NAN service ID from the
/// lower-cased name, so two names that differ only in case are the same service on the air.
public struct WAServiceName: Hashable, Sendable, CustomStringConvertible {
    /// The transport protocol named by the suffix.
    public enum TransportProtocol: String, Hashable, Sendable {
        /// `._tcp`
        case tcp
        /// `._udp`
        case udp
    }

    /// The full name as written, e.g. `_file-share._tcp`.
    public let rawValue: String
    /// The label between `_` and the protocol suffix, e.g. `file-share`.
    public let label: String
    /// The protocol suffix.
    public let transportProtocol: TransportProtocol

    /// The longest label allowed.
    public static let maximumLabelLength = 15

    /// Validates a service name.
    ///
    /// - Parameter name: The name, e.g. `_file-share._tcp`.
    /// - Throws: ``WAError/Code/invalidServiceName`` with a message naming the rule that failed.
    public init(_ name: String) throws(WAError) {
        func reject(_ reason: String) -> WAError {
            WAError(.invalidServiceName, message: "invalid service name '\(name)': \(reason)")
        }
        let transport: TransportProtocol
        if name.hasSuffix("._tcp") {
            transport = .tcp
        } else if name.hasSuffix("._udp") {
            transport = .udp
        } else {
            throw reject("it must end in ._tcp or ._udp, as in _example._tcp")
        }
        guard name.hasPrefix("_") else {
            throw reject("it must start with '_', as in _example._tcp")
        }
        let label = String(name.dropFirst().dropLast(5))
        guard !label.isEmpty else {
            throw reject("the part between '_' and '.\(transport.rawValue)' is empty")
        }
        guard label.count <= Self.maximumLabelLength else {
            throw reject("'\(label)' is \(label.count) characters long; at most \(Self.maximumLabelLength) are allowed")
        }
        if let bad = label.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }) {
            throw reject("'\(bad)' is not allowed; use only letters, digits and '-'")
        }
        guard label.contains(where: \.isLetter) else {
            throw reject("'\(label)' must contain at least one letter")
        }
        guard label.first != "-", label.last != "-" else {
            throw reject("'\(label)' must not begin or end with '-'")
        }
        self.rawValue = name
        self.label = label
        self.transportProtocol = transport
    }

    /// The name as written.
    public var description: String { rawValue }
}
