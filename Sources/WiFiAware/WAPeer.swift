public import NANWire

/// A NAN device the radio heard, whatever it announced: its address and what the radio measured.
/// Returned by ``WASystem/peers()``.
public struct WAPeer: Hashable, Sendable {
    /// The peer's NAN management interface (NMI) address.
    public var address: MACAddress
    /// The radio's facts from the peer's discovery frames.
    public var performance: WAPerformanceReport

    /// Creates a value.
    public init(address: MACAddress, performance: WAPerformanceReport) {
        self.address = address
        self.performance = performance
    }
}
