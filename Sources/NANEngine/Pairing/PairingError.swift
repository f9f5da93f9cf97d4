/// Why a pairing step failed: a malformed or unexpected message, a refused bootstrapping, a timeout, a
/// full table, or a cryptographic failure. The state it was raised from is kept.
public struct PairingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name, used in messages and tests.
        public let name: String
        init(_ name: String) { self.name = name }
        /// A field or attribute of the wrong length or value.
        public static let malformed = Code("malformed")
        /// A message that does not fit the exchange's state (wrong type, dialog token or peer).
        public static let unexpectedMessage = Code("unexpected message")
        /// The peer offered no bootstrapping method we accept, or chose one we did not offer.
        public static let methodMismatch = Code("bootstrapping method mismatch")
        /// The peer rejected the bootstrapping.
        public static let rejected = Code("rejected by the peer")
        /// No answer in time.
        public static let timedOut = Code("timed out")
        /// A bounded table is full.
        public static let tableFull = Code("table full")
        /// The PIN or passphrase differs between the two sides (an SAE confirm did not verify).
        public static let wrongPassword = Code("wrong PIN or passphrase")
        /// A PASN MIC did not verify, or the peer proved no knowledge of the expected key.
        public static let authenticationFailed = Code("authentication failed")
        /// A pairing verification named a device we hold no pairing key for.
        public static let unknownPeer = Code("unknown paired device")
        /// The two sides pair with different cipher suites (NCS-PK-PASN-128 against NCS-PK-PASN-256).
        public static let cipherSuiteMismatch = Code("cipher suite mismatch")
        /// libcrypto failed.
        public static let crypto = Code("cryptographic failure")
        /// The code's name.
        public var description: String { name }
    }
    /// The class of failure.
    public let code: Code
    /// What was being done.
    public let detail: String
    /// Creates an error.
    public init(_ code: Code, _ detail: String) { self.code = code; self.detail = detail }
    /// One line, e.g. `timed out: bootstrapping request to 02:00:00:00:00:0b`.
    public var description: String { "\(code): \(detail)" }
}
