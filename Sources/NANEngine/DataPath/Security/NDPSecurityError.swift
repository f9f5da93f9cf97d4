public import NANWire

/// Why an NCS-SK key exchange step failed. Every check on a received frame ends here, never in a trap; the
/// exchange keeps its state, so a forged or stale frame does not end it (the data path decides whether to
/// terminate, with ``reasonCode``).
public struct NDPSecurityError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A stable name, used in messages and tests.
        public let name: String
        init(_ name: String) { self.name = name }

        /// The cipher suite is not NCS-SK-128 or NCS-SK-256, or not the one this exchange uses.
        public static let unsupportedCipherSuite = Code("unsupported cipher suite")
        /// The passphrase or PMK cannot be used (empty or over 63 bytes; a PMK not 32 bytes).
        public static let invalidCredential = Code("invalid credential")
        /// A security attribute the message must carry is missing (CSIA, SCIA with an ND-PMKID, SKDA).
        public static let missingAttribute = Code("missing security attribute")
        /// The frame or its Shared-Key Descriptor does not decode.
        public static let malformed = Code("malformed")
        /// The PMKID the peer sent is not the one our PMK gives: a different passphrase or PMK.
        public static let pmkidMismatch = Code("PMKID mismatch")
        /// The MIC does not verify: a different key (wrong passphrase) or an altered frame.
        public static let micMismatch = Code("MIC mismatch")
        /// The replay counter is not the one this step expects.
        public static let replayCounter = Code("replay counter")
        /// The nonce is not the one the peer sent before.
        public static let nonceMismatch = Code("nonce mismatch")
        /// The Key Information bits do not fit the message (e.g. no MIC bit in message 2).
        public static let keyInformation = Code("key information")
        /// The message arrived, or was asked for, out of order for this role and step.
        public static let unexpectedMessage = Code("unexpected message")
        /// libcrypto failed (out of memory); not the peer's fault.
        public static let crypto = Code("cryptography failure")

        /// The code's name.
        public var description: String { name }
    }

    /// The class of failure.
    public let code: Code
    /// What was checked, e.g. `message 2: MIC`.
    public let detail: String

    /// Creates an error.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The NAN reason code to send in a rejecting NDP Response or a termination: security policy (8) for
    /// key and credential failures, invalid parameters (3) for malformed or unexpected frames.
    public var reasonCode: NANReasonCode {
        switch code {
        case .malformed, .unexpectedMessage, .keyInformation, .missingAttribute: .invalidParameters
        case .crypto: .unspecified
        default: .securityPolicy
        }
    }

    /// One line, e.g. `MIC mismatch: message 2`.
    public var description: String { "\(code): \(detail)" }
}
