public import NANWire

/// The responder's passphrase PMKs, one per publish and suite. A passphrase PMK is PBKDF2 with 4096 rounds
/// over a salt that is ours alone as the publisher (suite, service ID, our NMI: ``NDPPairwiseMasterKey``), so
/// it is the same for every request to the publish: derived at the first request, not at each, so a burst
/// of requests costs HMACs, not PBKDF2 runs. A PMK given raw, or a pairing's, needs no derivation and is
/// not kept here.
struct PublishMasterKeys: Sendable {
    private struct Inputs: Hashable, Sendable {
        var passphrase: String
        var suite: NDPCipherSuite
        var serviceID: ServiceID
        var publisherNMI: MACAddress
    }

    private var keys: [InstanceID: [Inputs: NDPPairwiseMasterKey]] = [:]
    /// How many PBKDF2 derivations were run (tests).
    private(set) var derivations = 0

    /// The PMK for `suite` under `policy`'s credential for our publish `publishID` (we, `localNMI`, are the
    /// publisher), derived only if this publish has none for these inputs yet.
    mutating func key(
        for publishID: InstanceID, policy: NDPSecurityPolicy, suite: NDPCipherSuite, localNMI: MACAddress,
        peerNMI: MACAddress
    ) throws(NDPSecurityError) -> NDPPairwiseMasterKey {
        guard case .passphrase(let passphrase) = policy.credential, !suite.isPairing else {
            return try policy.credential.pairwiseMasterKey(
                suite: suite, serviceID: policy.serviceID, publisherNMI: localNMI, peerNMI: peerNMI)
        }
        let inputs = Inputs(passphrase: passphrase, suite: suite, serviceID: policy.serviceID, publisherNMI: localNMI)
        if let known = keys[publishID]?[inputs] { return known }
        derivations += 1
        let derived = try NDPPairwiseMasterKey(
            passphrase: passphrase, suite: suite, serviceID: policy.serviceID, publisherNMI: localNMI)
        // Another policy for the publish replaces what the old one left; a publish keeps one PMK per suite.
        keys[publishID] = (keys[publishID] ?? [:]).filter {
            $0.key.suite != suite && $0.key.passphrase == passphrase
                && $0.key.serviceID == policy.serviceID && $0.key.publisherNMI == localNMI
        }
        keys[publishID, default: [:]][inputs] = derived
        return derived
    }

    /// Forgets the PMKs of a publish that no longer accepts data paths.
    mutating func forget(_ publishID: InstanceID) {
        keys[publishID] = nil
    }
}
