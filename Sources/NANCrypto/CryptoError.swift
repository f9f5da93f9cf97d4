/// Why a cryptographic operation failed: libcrypto reported an error, an input had a length the operation
/// does not accept, or an integrity check (AES key unwrap) did not pass.
public struct CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name for the code, used in messages and tests.
        public let name: String
        init(_ name: String) { self.name = name }

        /// libcrypto returned a failure (out of memory, algorithm unavailable).
        public static let libcrypto = Code("libcrypto failure")
        /// A key, message or output length the operation does not accept.
        public static let invalidLength = Code("invalid length")
        /// AES key unwrap: the integrity check value did not match (wrong key or altered data).
        public static let integrityCheckFailed = Code("integrity check failed")

        /// The code's name.
        public var description: String { name }
    }

    /// The class of failure.
    public let code: Code
    /// What was being done, e.g. `HMAC-SHA-256` or `AES key unwrap: ciphertext of 20 bytes`.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// One line, e.g. `invalid length: AES key wrap: key of 15 bytes`.
    public var description: String { "\(code): \(detail)" }
}
