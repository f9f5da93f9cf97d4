public import NANWire

/// Who may ask one of our publishes for a data path: anyone, a fixed set of NMI addresses, or a check
/// made when each request arrives, so that a list which changes while the publish runs (a paired-device
/// store: a device paired, or met again at a new address, after the publish started) is consulted as it
/// is at that moment.
public struct DataPathAdmission: Sendable {
    private let check: (@Sendable (MACAddress) -> Bool)?

    private init(check: (@Sendable (MACAddress) -> Bool)?) {
        self.check = check
    }

    /// Every peer may ask.
    public static let anyone = DataPathAdmission(check: nil)

    /// Only peers at these NMI addresses may ask.
    ///
    /// - Parameter peers: The admitted NMI addresses.
    public static func only(_ peers: Set<MACAddress>) -> DataPathAdmission {
        DataPathAdmission(check: { peers.contains($0) })
    }

    /// Peers for which `admits` is true when their request arrives; it is called once per request, on the
    /// data-path engine's actor, so it should be quick.
    ///
    /// - Parameter admits: Whether the peer at this NMI address may ask.
    public static func checking(_ admits: @escaping @Sendable (MACAddress) -> Bool) -> DataPathAdmission {
        DataPathAdmission(check: admits)
    }

    /// Whether the peer at `peer` (its NMI address) may ask for a data path.
    public func admits(_ peer: MACAddress) -> Bool {
        check?(peer) ?? true
    }
}
