import NANEngine
import Testing

@testable import WiFiAware

/// A failed pairing says why in a typed field, so that a program never reads the message to tell a wrong PIN
/// from a timeout.
@Suite struct PairingFailureTests {
    @Test func eachEngineFailureBecomesItsTypedPairingFailure() {
        let cases: [(PairingError.Code, WAPairingFailure)] = [
            (.wrongPassword, .wrongPIN), (.cipherSuiteMismatch, .cipherSuiteMismatch), (.timedOut, .timedOut),
            (.rejected, .refused), (.methodMismatch, .noCommonMethod), (.authenticationFailed, .other),
            (.malformed, .other),
        ]
        for (code, failure) in cases {
            let error = WAPairing.translate(PairingError(code, "test"))
            #expect(error.code == .connectionFailed)
            #expect(error.pairingFailure == failure, "\(code)")
        }
    }

    @Test func otherErrorsCarryNoPairingFailure() {
        #expect(WAError(.connectionFailed, message: "x").pairingFailure == nil)
    }
}
