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
    /// Waits at most `timeout` for the TX status of the frame sent under `cookie` (nil: none came).
    func acknowledgement(of cookie: UInt64, within timeout: Duration) async -> Bool?
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
    /// Adds the peer's NMI station, installs its schedule (the part on the channels of `localSchedule`, our
    /// schedule in use), then gives the station the peer's HT/VHT capabilities and authorizes it (the kernel
    /// refuses NDI stations of a peer whose NMI station has no HT).
    func addPeer(_ link: NDPLink, localSchedule: DataPathSchedule) async throws
    /// Adds the peer's NMI station with the schedule it announced (`availability`, `committedDW`) cut to the
    /// channels of `localSchedule`, before our first setup NAF to it: the kernel then sends that NAF in our
    /// next common slot instead of the next DW (docs/design/outside-dw.md). Nothing when the peer announced no
    /// committed slot on our channels. Returns whether it added the station (false: none added, one was
    /// there already, or the kernel refused: the NAF then waits for a DW as before).
    func preparePeer(
        _ peer: MACAddress, availability: PeerAvailability, committedDW: UInt16, localSchedule: DataPathSchedule
    ) async -> Bool
    /// Installs the peer's schedule again (`NAN_SET_PEER_SCHED` on its NMI station, which exists), cut to the
    /// channels of `localSchedule`: after a Schedule Update Notification or a change of our schedule.
    func updatePeerSchedule(_ link: NDPLink, localSchedule: DataPathSchedule) async throws
    /// Installs what `peer` announced (`availability`, `committedDW`) again on its NMI station, which exists,
    /// cut to the channels of `localSchedule`: a discovery station after the peer's or our schedule changed.
    func updatePeerSchedule(
        of peer: MACAddress, availability: PeerAvailability, committedDW: UInt16, localSchedule: DataPathSchedule
    ) async throws
    /// Adds the peer's NDI station on `interface`. Open (no ``NDPLink/pairwiseKey``): added authorized. Secure:
    /// added with MFP and not authorized, then ``installPairwiseKey(_:for:of:on:)`` and
    /// ``authorizePeerDataStation(_:of:on:)``, so no frame passes before the key is in.
    func addPeerDataStation(_ link: NDPLink, on interface: DataInterface) async throws
    /// Installs a secure data path's TK (`NEW_KEY`, pairwise, index 0) for the peer's NDI station `peerNDI`.
    func installPairwiseKey(
        _ key: DataPathPairwiseKey, for peerNDI: MACAddress, of peerNMI: MACAddress,
        on interface: DataInterface) async throws
    /// Authorizes the peer's NDI station (after its key is in, for a secure data path).
    func authorizePeerDataStation(
        _ peerNDI: MACAddress, of peerNMI: MACAddress, on interface: DataInterface) async throws
    /// Removes the peer's NDI station from `interface`.
    func removePeerDataStation(_ peerNDI: MACAddress, of peerNMI: MACAddress, on interface: DataInterface) async
    /// Packets received and sent by the peer's NDI station on `interface`, if the kernel reports them.
    func packetCount(of peerNDI: MACAddress, on interface: DataInterface) async -> UInt64?
    /// Removes the peer's NMI station (and with it its schedule).
    func removePeer(_ peerNMI: MACAddress) async
    /// Binds the peer's link-local address (`fe80::` and `identifier`) to its NDI station's address on
    /// `interface` for good, so no Neighbour Advertisement can move it to another station. Best effort.
    func bindPeerAddress(_ identifier: InterfaceIdentifier, to peerNDI: MACAddress, on interface: DataInterface) async
    /// Sends a management frame from the NDI (its source our NDI address); the kernel protects a robust one
    /// under the key of the peer NDI station it goes to. Returns the TX cookie.
    func transmit(_ frame: [UInt8], from interface: DataInterface) async throws -> UInt64
}

extension DataPathRadio {
    /// Radios that schedule nothing (the test fakes) send setup NAFs without a peer station.
    func preparePeer(
        _ peer: MACAddress, availability: PeerAvailability, committedDW: UInt16, localSchedule: DataPathSchedule
    ) async -> Bool { false }
    /// Radios that schedule nothing (the test fakes) have no peer schedule to update.
    func updatePeerSchedule(
        of peer: MACAddress, availability: PeerAvailability, committedDW: UInt16, localSchedule: DataPathSchedule
    ) async throws {}
    /// Radios without an IPv6 neighbour table (the test fakes) have nothing to bind.
    func bindPeerAddress(_ identifier: InterfaceIdentifier, to peerNDI: MACAddress, on interface: DataInterface) async {
    }
    /// Radios with one way out (the test fakes) send NDI frames as any other.
    func transmit(_ frame: [UInt8], from interface: DataInterface) async throws -> UInt64 {
        try await transmit(frame, frequency: nil)
    }
}

/// What the data-path engine hears from the radio.
enum DataPathRadioEvent: Sendable {
    /// We joined a cluster (its ID goes in address 3 of our NAFs).
    case clusterJoined(MACAddress)
    /// A discovery window starts on `frequency`.
    case discoveryWindow(frequency: Int)
    /// A management frame arrived (only NAFs matter).
    case frameReceived(bytes: [UInt8])
    /// The kernel moved the radio off these NAN channels (`NAN_CHANNEL_EVAC`, frequencies in MHz).
    case channelsEvacuated(frequencies: Set<Int>)
}
