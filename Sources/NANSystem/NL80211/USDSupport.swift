/// A radio's support for NAN unsynchronized service discovery (USD): publish, subscribe and follow-ups in
/// public action frames on an ordinary station interface, without a NAN cluster. It needs no NAN support from
/// the driver, only remain-on-channel and management-frame transmit and receive, read from the wiphy's
/// `GET_WIPHY` description.
public struct USDSupport: Sendable, Hashable {
    /// The radio offers station interfaces (`NL80211_IFTYPE_STATION` in the supported interface types).
    public var stationInterface: Bool
    /// The driver takes `REMAIN_ON_CHANNEL` (in `NL80211_ATTR_SUPPORTED_COMMANDS`).
    public var remainOnChannel: Bool
    /// The driver takes `FRAME` (in `NL80211_ATTR_SUPPORTED_COMMANDS`; `REGISTER_FRAME` is not listed there,
    /// cfg80211 offers it on every radio).
    public var actionFrames: Bool
    /// The longest remain-on-channel period (`NL80211_ATTR_MAX_REMAIN_ON_CHANNEL_DURATION`), if reported.
    public var maximumRemainOnChannel: Duration?

    /// Makes a value.
    public init(
        stationInterface: Bool, remainOnChannel: Bool, actionFrames: Bool, maximumRemainOnChannel: Duration? = nil
    ) {
        self.stationInterface = stationInterface
        self.remainOnChannel = remainOnChannel
        self.actionFrames = actionFrames
        self.maximumRemainOnChannel = maximumRemainOnChannel
    }

    /// A radio that can do none of it.
    public static let none = USDSupport(stationInterface: false, remainOnChannel: false, actionFrames: false)

    /// Whether USD can run on this radio.
    public var isSupported: Bool { unsupportedReason == nil }

    /// Why USD cannot run here, in words a user can act on; nil when it can.
    public var unsupportedReason: String? {
        if !stationInterface { return "the driver offers no station interface" }
        if !remainOnChannel { return "the driver cannot remain on a channel (no REMAIN_ON_CHANNEL)" }
        if !actionFrames { return "the driver cannot send and receive action frames (no FRAME)" }
        return nil
    }
}

extension USDSupport {
    /// Reads USD support from a radio's merged `GET_WIPHY` attributes.
    init(decoding attributes: NetlinkAttributes, types: [InterfaceType]) throws(NetlinkError) {
        typealias A = NL80211Attribute
        var commands = Set<UInt32>()
        for command in try attributes.nested(A.supportedCommands)?.all ?? [] {
            if let value = try? command.integer(UInt32.self) { commands.insert(value) }
        }
        let has = { (command: NL80211Command) in commands.contains(UInt32(command.rawValue)) }
        let maximum = try attributes.integer(A.maxRemainOnChannelDuration, as: UInt32.self)
        self.init(
            stationInterface: types.contains(.station),
            remainOnChannel: has(.remainOnChannel),
            actionFrames: has(.frame),
            maximumRemainOnChannel: maximum.map { .milliseconds(Int64($0)) })
    }
}
