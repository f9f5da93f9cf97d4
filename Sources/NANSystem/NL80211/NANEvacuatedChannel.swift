/// A NAN channel the device had to leave because another interface needed the radio elsewhere, as
/// reported by `NL80211_CMD_NAN_CHANNEL_EVAC` (one nested `NL80211_ATTR_NAN_CHANNEL` each).
///
/// Only the frequency is always present; the kernel may leave out the rest, so those are optional.
/// Compare ``frequency`` (and ``channelEntry`` when set) with the channels of the local schedule to
/// find the slots to move.
public struct NANEvacuatedChannel: Sendable, Hashable {
    /// The control channel (`NL80211_ATTR_WIPHY_FREQ`).
    public var frequency: Frequency
    /// The width (`NL80211_ATTR_CHANNEL_WIDTH`), if reported.
    public var width: ChannelWidth?
    /// The centre of the (first segment of the) channel (`NL80211_ATTR_CENTER_FREQ1`), if reported.
    public var centerFrequency1: Frequency?
    /// The NAN Channel Entry (Wi-Fi Aware Table 100, 6 bytes), if reported.
    public var channelEntry: [UInt8]?
    /// Receive spatial streams (`NL80211_ATTR_NAN_RX_NSS`), if reported.
    public var receiveSpatialStreams: UInt8?

    /// Creates an evacuated-channel value.
    public init(
        frequency: Frequency, width: ChannelWidth? = nil, centerFrequency1: Frequency? = nil,
        channelEntry: [UInt8]? = nil, receiveSpatialStreams: UInt8? = nil
    ) {
        self.frequency = frequency
        self.width = width
        self.centerFrequency1 = centerFrequency1
        self.channelEntry = channelEntry
        self.receiveSpatialStreams = receiveSpatialStreams
    }
}

extension NANEvacuatedChannel {
    /// Decodes the attributes nested in one `NL80211_ATTR_NAN_CHANNEL`.
    init(decoding attributes: NetlinkAttributes, offset: Int) throws(NetlinkError) {
        typealias A = NL80211Attribute
        guard let frequency = try attributes.integer(A.wiphyFreq, as: UInt32.self) else {
            throw .malformed("NAN channel without NL80211_ATTR_WIPHY_FREQ", at: offset)
        }
        self.init(
            frequency: Frequency(rawValue: frequency),
            width: try attributes.integer(A.channelWidth, as: UInt32.self).map(ChannelWidth.init(rawValue:)),
            centerFrequency1: try attributes.integer(A.centerFreq1, as: UInt32.self).map(Frequency.init(rawValue:)),
            channelEntry: try attributes.first(A.nanChannelEntry)?.bytes(count: 6),
            receiveSpatialStreams: try attributes.integer(A.nanRxNss, as: UInt8.self))
    }
}
