/// What a driver says about its NAN implementation.
///
/// The corresponding nl80211 attribute is `NL80211_ATTR_NAN_CAPABILITIES` (nested, `enum nl80211_nan_capabilities`).
public struct NANCapabilities: Sendable, Hashable {
    /// The device accepts a NAN configuration (`NL80211_ATTR_NAN_CONFIG`) when starting. `CONFIGURABLE_SYNC`.
    public var configurableSynchronization: Bool
    /// The driver has no discovery engine: user space sends and receives SDFs itself, timed by
    /// discovery-window notifications. `USERSPACE_DE`.
    public var userSpaceDiscoveryEngine: Bool
    /// Supported operation modes (Wi-Fi Aware Table 81). `OP_MODE`.
    public var operationModes: UInt8?
    /// Number of transmit antennas (0: not reported). Low nibble of `NUM_ANTENNAS`.
    public var transmitAntennas: UInt8?
    /// Number of receive antennas (0: not reported). High nibble of `NUM_ANTENNAS`.
    public var receiveAntennas: UInt8?
    /// Maximum channel switch time in microseconds. `MAX_CHANNEL_SWITCH_TIME`.
    public var maxChannelSwitchTimeMicroseconds: UInt16?
    /// The capabilities byte (Wi-Fi Aware Table 79). `CAPABILITIES`.
    public var capabilities: UInt8?
    /// Whether data-path PHY capabilities (`PHY`: HT/VHT/HE) are reported.
    public var hasPHYCapabilities: Bool

    /// Creates a value (mostly for tests).
    public init(
        configurableSynchronization: Bool = false, userSpaceDiscoveryEngine: Bool = false,
        operationModes: UInt8? = nil, transmitAntennas: UInt8? = nil, receiveAntennas: UInt8? = nil,
        maxChannelSwitchTimeMicroseconds: UInt16? = nil, capabilities: UInt8? = nil,
        hasPHYCapabilities: Bool = false
    ) {
        self.configurableSynchronization = configurableSynchronization
        self.userSpaceDiscoveryEngine = userSpaceDiscoveryEngine
        self.operationModes = operationModes
        self.transmitAntennas = transmitAntennas
        self.receiveAntennas = receiveAntennas
        self.maxChannelSwitchTimeMicroseconds = maxChannelSwitchTimeMicroseconds
        self.capabilities = capabilities
        self.hasPHYCapabilities = hasPHYCapabilities
    }
}

extension NANCapabilities {
    /// Decodes the nested capabilities attribute.
    init(decoding attributes: NetlinkAttributes) throws(NetlinkError) {
        typealias C = NL80211NANCapabilityAttribute
        let antennas = try attributes.integer(C.numAntennas, as: UInt8.self)
        self.init(
            configurableSynchronization: attributes.has(C.configurableSync),
            userSpaceDiscoveryEngine: attributes.has(C.userspaceDe),
            operationModes: try attributes.integer(C.opMode, as: UInt8.self),
            transmitAntennas: antennas.map { $0 & 0x0f },
            receiveAntennas: antennas.map { $0 >> 4 },
            maxChannelSwitchTimeMicroseconds: try attributes.integer(C.maxChannelSwitchTime, as: UInt16.self),
            capabilities: try attributes.integer(C.capabilities, as: UInt8.self),
            hasPHYCapabilities: attributes.has(C.phy))
    }
}
