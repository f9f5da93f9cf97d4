public import NANWire

/// How one side secures its data paths for one service: the credential, the NCS-SK suites, and the service
/// whose ID salts the passphrase PMK and enters the PMKID. No policy means an open data path.
public struct NDPSecurityPolicy: Hashable, Sendable, CustomStringConvertible {
    /// The passphrase or PMK.
    public var credential: NDPCredential
    /// Initiator: the first is the one requested. Responder: the suites accepted, in order of preference.
    public var suites: [NDPCipherSuite]
    /// The service the data path is for.
    public var serviceID: ServiceID

    /// Creates a policy; `suites` must not be empty (an empty list means NCS-SK-128).
    public init(credential: NDPCredential, suites: [NDPCipherSuite] = [.sk128], serviceID: ServiceID) {
        self.credential = credential
        self.suites = suites.isEmpty ? [.sk128] : suites
        self.serviceID = serviceID
    }

    /// The suite an initiator requests.
    public var requestedSuite: NDPCipherSuite { suites.first ?? .sk128 }

    /// E.g. `NCS-SK-128 with a passphrase` (never the secret).
    public var description: String { suites.map(\.description).joined(separator: "/") + " with a \(credential)" }
}
