public import NANWire
internal import NANCrypto

/// Recognises paired devices from a received NAN Identity Resolution attribute: the tag is recomputed
/// with each stored NIK over the sender's NMI (the frame's transmitter address) and the NIRA's nonce,
/// and compared in constant time. Pure; the store supplies the keys.
public struct IdentityResolver<PeerID: Hashable & Sendable>: Sendable {
    /// The most keys held; a store with more is refused at `add` (each NIRA costs one HMAC per key).
    public let capacity: Int
    private var keys: [(peer: PeerID, nik: NANIdentityKey)] = []

    /// An empty resolver holding at most `capacity` keys.
    public init(capacity: Int = 256) { self.capacity = max(1, capacity) }

    /// The number of keys held.
    public var count: Int { keys.count }

    /// Adds or replaces the NIK of `peer`.
    public mutating func add(_ nik: NANIdentityKey, for peer: PeerID) throws(PairingError) {
        if let index = keys.firstIndex(where: { $0.peer == peer }) {
            keys[index].nik = nik
            return
        }
        guard keys.count < capacity else { throw PairingError(.tableFull, "identity resolver holds \(capacity) keys") }
        keys.append((peer, nik))
    }

    /// Forgets `peer`'s NIK (unpairing).
    public mutating func remove(_ peer: PeerID) { keys.removeAll { $0.peer == peer } }

    /// The paired peer that sent `nira` from `transmitter`, or nil when no stored NIK gives its tag (or the
    /// NIRA is not cipher version 0 with an 8-byte nonce and tag). Every key is tried, match or not.
    public func resolve(_ nira: IdentityResolutionAttribute, from transmitter: MACAddress) -> PeerID? {
        guard nira.cipherVersion == 0, nira.nonce.count == 8, nira.tag.count == 8 else { return nil }
        var found: PeerID?
        for entry in keys {
            guard let tag = try? entry.nik.tag(nmi: transmitter, nonce: Array(nira.nonce)) else { continue }
            if ConstantTime.equal(tag, nira.tag), found == nil { found = entry.peer }
        }
        return found
    }
}
