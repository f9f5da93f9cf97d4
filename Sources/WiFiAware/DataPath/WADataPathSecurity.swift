/// How a data path is protected. Secure (NCS-SK with a passphrase or a PMK) is the default in the API
/// and the CLI; an open data path must be asked for explicitly.
public struct WADataPathSecurity: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case open
        case passphrase(String)
        case pmk([UInt8])
    }
    let kind: Kind

    /// No encryption: anyone in range can read the traffic. Use only on a trusted air or with TLS on top.
    public static let open = WADataPathSecurity(kind: .open)

    /// NCS-SK with a PMK derived from `passphrase` (8–63 characters).
    public static func passphrase(_ passphrase: String) -> WADataPathSecurity { WADataPathSecurity(kind: .passphrase(passphrase)) }

    /// NCS-SK with a raw 32-byte PMK.
    public static func pmk(_ bytes: [UInt8]) -> WADataPathSecurity { WADataPathSecurity(kind: .pmk(bytes)) }

    /// Whether this is an open data path.
    public var isOpen: Bool { kind == .open }

    /// `open`, `passphrase` or `pmk` (never the secret).
    public var description: String {
        switch kind {
        case .open: "open"
        case .passphrase: "passphrase"
        case .pmk: "pmk"
        }
    }

    /// Refuses what this build cannot do yet: secure data paths wait for the NCS-SK key exchange.
    func check() throws(WAError) {
        guard isOpen else {
            throw WAError(.invalidArgument,
                          message: "secure data paths (NCS-SK) are not available in this build yet; ask for an open one explicitly")
        }
    }
}
