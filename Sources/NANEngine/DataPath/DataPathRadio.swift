public import NANWire

/// A NAN data interface (NDI) we created: a netdev carrying the data paths' IP traffic.
public struct DataInterface: Hashable, Sendable {
    /// The netdev name, e.g. `nan0data`.
    public var name: String
    /// The netdev index.
    public var index: UInt32
    /// Its address (our NDI address on the air).
    public var address: MACAddress

    /// Creates a value.
    public init(name: String, index: UInt32, address: MACAddress) {
        self.name = name
        self.index = index
        self.address = address
    }
}

/// What the data-path engine needs from the radio and the kernel. The real one is a thin adapter over
/// the nl80211 session that owns the NAN interface; tests use a fake.
protocol DataPathRadio: Sendable {
    /// Our NMI address.
    var localAddress: MACAddress { get }
    /// Sends a management frame on the NAN interface; returns the TX cookie.
    func transmit(_ frame: [UInt8], frequency: Int?) async throws -> UInt64
    /// Which 5 GHz channels to try for the schedule, best first (empty: 2.4 GHz only).
    var fiveGHzCandidates: [DataPathChannel] { get }
    /// Our Device Capability attribute and HT/VHT capability elements.
    var capabilities: (DeviceCapabilityAttribute, [InformationElement]) { get }
    /// Creates the NDI (owned by our session) and brings it up.
    func createDataInterface() async throws -> DataInterface
    /// Deletes the NDI.
    func removeDataInterface(_ interface: DataInterface) async
    /// Installs our schedule (`NAN_SET_LOCAL_SCHED`).
    func setLocalSchedule(_ schedule: DataPathSchedule) async throws
    /// Clears our schedule (before NAN stops).
    func clearLocalSchedule() async
    /// Adds the peer's NMI station (with its HT/VHT elements) and installs its schedule.
    func addPeer(_ link: NDPLink) async throws
    /// Adds the peer's NDI station on `interface`; authorizes it at once only for an open data path
    /// (`link.key == nil`): a secure one is authorized by ``installKey(_:for:on:)``.
    func addPeerDataStation(_ link: NDPLink, on interface: DataInterface) async throws
    /// For a secure data path, after ``addPeerDataStation(_:on:)``: installs the pairwise key for the peer's
    /// NDI station (`NEW_KEY`: `key.temporalKey`, `key.cipherSelector`, index `key.keyIndex`, MAC
    /// `key.peerNDI`), then authorizes the station. The station must not carry data before this returns.
    func installKey(_ key: NDPInstallableKey, for link: NDPLink, on interface: DataInterface) async throws
    /// Removes the peer's NDI station from `interface`.
    func removePeerDataStation(_ peerNDI: MACAddress, of peerNMI: MACAddress, on interface: DataInterface) async
    /// Packets received and sent by the peer's NDI station on `interface`, if the kernel reports them.
    func packetCount(of peerNDI: MACAddress, on interface: DataInterface) async -> UInt64?
    /// Removes the peer's NMI station (and with it its schedule).
    func removePeer(_ peerNMI: MACAddress) async
}

/// What the data-path engine hears from the radio.
enum DataPathRadioEvent: Sendable {
    /// We joined a cluster (its ID goes in address 3 of our NAFs).
    case clusterJoined(MACAddress)
    /// A discovery window starts on `frequency`.
    case discoveryWindow(frequency: Int)
    /// A management frame arrived (only NAFs matter).
    case frameReceived(bytes: [UInt8])
    /// A frame we sent was acknowledged, or not.
    case transmitStatus(cookie: UInt64, acknowledged: Bool)
}
