/// The hash functions NAN security uses: SHA-256 for the 128-bit suites, SHA-384 for the 256-bit ones.
public enum HashFunction: Hashable, Sendable, CustomStringConvertible {
    /// SHA-256 (32-byte output).
    case sha256
    /// SHA-384 (48-byte output).
    case sha384

    /// The output length in bytes.
    public var outputSize: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        }
    }

    /// `SHA-256` or `SHA-384`.
    public var description: String {
        switch self {
        case .sha256: "SHA-256"
        case .sha384: "SHA-384"
        }
    }
}
