public import NANWire
import Synchronization

/// The ND-PMKs NAN pairing leaves for data paths (NCS-PK-PASN), one per peer NMI with the pairing's cipher
/// suite: each PASN pairing setup or verification derives a fresh ND-PMK from its KDK
/// (``PairingKeys/ndPMK``), and the data path's 4-way handshake with that peer starts from it on the same
/// suite (NCS-PK-PASN-128 or -256), as wpa_supplicant 2.12 hands its `nd_pmk` to the NDP. The
/// pairing engine writes (``PairingEngine/init(localAddress:cluster:identity:link:policy:devices:limits:bootstrappingLimits:resolverCapacity:dataPathKeys:)``),
/// the data path reads (``NDPCredential/paired(_:)``).
///
/// Bounded by count (the oldest goes) and by age (a key older than ``lifetime`` is not used: verify
/// again). Shared by reference; equal only to itself. Never prints a key.
public final class PairedDataPathKeys: Hashable, Sendable, CustomStringConvertible {
    private struct Entry {
        var key: NDPPairwiseMasterKey
        var suite: NDPCipherSuite
        var stored: ContinuousClock.Instant
    }

    private let entries = Mutex<[MACAddress: Entry]>([:])
    /// The most peers kept.
    public let capacity: Int
    /// How long a key may be used after its pairing or verification.
    public let lifetime: Duration

    /// An empty table.
    public init(capacity: Int = 64, lifetime: Duration = .seconds(3600)) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// Keeps `key` (32 bytes) as the ND-PMK with the peer at `peer` for data paths on `suite`, replacing
    /// any; ignores a key of another length or a suite that is not a pairing one.
    public func store(_ key: [UInt8], suite: NDPCipherSuite = .pk128, for peer: MACAddress) {
        guard suite.isPairing, let pmk = try? NDPPairwiseMasterKey(bytes: key) else { return }
        let now = ContinuousClock.now
        entries.withLock { table in
            table[peer] = Entry(key: pmk, suite: suite, stored: now)
            while table.count > capacity, let oldest = table.min(by: { $0.value.stored < $1.value.stored })?.key {
                table[oldest] = nil
            }
        }
    }

    /// The ND-PMK with the peer at `peer`, if a pairing or verification with it left one within ``lifetime``.
    public func key(for peer: MACAddress) -> NDPPairwiseMasterKey? { entry(for: peer)?.key }

    /// The cipher suite of the pairing that left the ND-PMK with `peer` (what a data path with it uses).
    public func suite(for peer: MACAddress) -> NDPCipherSuite? { entry(for: peer)?.suite }

    /// The ND-PMK with `peer` and its suite, within ``lifetime``.
    func entry(for peer: MACAddress) -> (key: NDPPairwiseMasterKey, suite: NDPCipherSuite)? {
        let now = ContinuousClock.now
        return entries.withLock { table in
            guard let entry = table[peer] else { return nil }
            guard now - entry.stored <= lifetime else {
                table[peer] = nil
                return nil
            }
            return (entry.key, entry.suite)
        }
    }

    /// Forgets the key with `peer` (a failed verification).
    public func remove(_ peer: MACAddress) {
        _ = entries.withLock { $0.removeValue(forKey: peer) }
    }

    /// How many peers have a key.
    public var count: Int { entries.withLock { $0.count } }

    /// Identity.
    public static func == (lhs: PairedDataPathKeys, rhs: PairedDataPathKeys) -> Bool { lhs === rhs }
    /// Identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    /// `PairedDataPathKeys(2 peers)`: never a key.
    public var description: String { "PairedDataPathKeys(\(count) peers)" }
}
