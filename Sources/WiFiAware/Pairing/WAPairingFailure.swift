/// Why a pairing failed, carried by the ``WAError`` (code `connectionFailed`) that ``WAPairing/run`` throws,
/// so that a program can act on it without reading the message.
public enum WAPairingFailure: String, Hashable, Sendable, CaseIterable {
    /// The two PINs (or passphrases) differ: SAE's confirm did not verify.
    case wrongPIN = "wrong-pin"
    /// The two sides asked for different cipher suites (NCS-PK-PASN-128 against -256).
    case cipherSuiteMismatch = "cipher-suite-mismatch"
    /// The peer did not answer in time, or no peer was found.
    case timedOut = "timed-out"
    /// The peer refused the bootstrapping or the pairing.
    case refused
    /// No bootstrapping method fits both sides.
    case noCommonMethod = "no-common-method"
    /// Any other failure: a malformed or unexpected frame, a key that did not verify, a full table.
    case other
}
