import NANWire
/// One nl80211 request as bytes: the command, its attributes, and whether it is a dump.
///
/// Every request the session sends is built by a static function here, without a socket, so the
/// bytes can be checked in tests.
struct NL80211Request: Sendable, Hashable {
    /// The command.
    var command: NL80211Command
    /// The attribute bytes.
    var attributes: [UInt8]
    /// Whether the request is a dump (`NLM_F_DUMP`).
    var dump = false

    /// The C name of the command, for errors: `NL80211_CMD_START_NAN`.
    var callName: String { command.cName }

    typealias A = NL80211Attribute

    static func build(
        _ command: NL80211Command, dump: Bool = false,
        _ body: (inout NetlinkAttributeWriter) throws(NetlinkError) -> Void
    ) throws(NetlinkError) -> NL80211Request {
        var writer = NetlinkAttributeWriter()
        try body(&writer)
        return NL80211Request(command: command, attributes: writer.bytes, dump: dump)
    }

    /// `GET_WIPHY` dump, split (every radio's description over several messages).
    static func getWiphyDump() throws(NetlinkError) -> NL80211Request {
        try build(.getWiphy, dump: true) { (w) throws(NetlinkError) in try w.putFlag(A.splitWiphyDump) }
    }

    /// `GET_REG` dump: the global regulatory domain and every radio's private one.
    static func getRegulatoryDump() throws(NetlinkError) -> NL80211Request {
        try build(.getReg, dump: true) { _ in }
    }

    /// `GET_INTERFACE` dump.
    static func getInterfaceDump() throws(NetlinkError) -> NL80211Request {
        try build(.getInterface, dump: true) { _ in }
    }

    /// `NEW_INTERFACE`.
    ///
    /// - Parameters:
    ///   - ownedBySession: sets `SOCKET_OWNER`: the interface is destroyed when the socket closes and
    ///     its NAN events and registered frames are unicast to this socket.
    static func newInterface(
        wiphy: WiphyIndex, name: String, type: InterfaceType, address: MACAddress?,
        ownedBySession: Bool
    ) throws(NetlinkError) -> NL80211Request {
        try build(.newInterface) { (w) throws(NetlinkError) in
            try w.put(A.wiphy, wiphy.rawValue)
            try w.put(A.ifname, string: name)
            try w.put(A.iftype, type.rawValue)
            if let address { try w.put(A.mac, bytes: address.bytes) }
            if ownedBySession { try w.putFlag(A.socketOwner) }
        }
    }

    /// `DEL_INTERFACE` by wdev.
    static func deleteInterface(_ wdev: WirelessDeviceID) throws(NetlinkError) -> NL80211Request {
        try build(.delInterface) { (w) throws(NetlinkError) in try w.put(A.wdev, wdev.rawValue) }
    }

    /// `START_NAN`.
    static func startNAN(
        _ wdev: WirelessDeviceID, _ configuration: NANConfiguration
    ) throws(NetlinkError) -> NL80211Request {
        try build(.startNan) { (w) throws(NetlinkError) in
            try w.put(A.wdev, wdev.rawValue)
            try putNAN(configuration, into: &w, includeClusterID: true)
        }
    }

    /// `CHANGE_NAN_CONFIG`: resends every setting (the kernel replaces the whole configuration).
    static func changeNANConfiguration(
        _ wdev: WirelessDeviceID, _ configuration: NANConfiguration
    ) throws(NetlinkError) -> NL80211Request {
        try build(.changeNanConfig) { (w) throws(NetlinkError) in
            try w.put(A.wdev, wdev.rawValue)
            try putNAN(configuration, into: &w, includeClusterID: false)
        }
    }

    /// `STOP_NAN`.
    static func stopNAN(_ wdev: WirelessDeviceID) throws(NetlinkError) -> NL80211Request {
        try build(.stopNan) { (w) throws(NetlinkError) in try w.put(A.wdev, wdev.rawValue) }
    }

    private static func putNAN(
        _ c: NANConfiguration, into w: inout NetlinkAttributeWriter,
        includeClusterID: Bool
    ) throws(NetlinkError) {
        typealias C = NL80211NANConfigAttribute
        typealias B = NL80211NANBandConfigAttribute
        try w.put(A.nanMasterPref, c.masterPreference)
        if let bands = c.bands { try w.put(A.bands, bands.rawValue) }
        guard c.hasNANConfig else { return }
        try w.nest(A.nanConfig) { (n) throws(NetlinkError) in
            if includeClusterID, let cluster = c.clusterID { try n.put(C.clusterId, bytes: cluster.bytes) }
            if let extra = c.extraAttributes { try n.put(C.extraAttrs, bytes: extra) }
            if let vendor = c.vendorElements { try n.put(C.vendorElems, bytes: vendor) }
            if !c.bandConfigurations.isEmpty {
                try n.nest(C.bandConfigs) { (array) throws(NetlinkError) in
                    for (position, band) in c.bandConfigurations.enumerated() {
                        try array.nest(type: UInt16(position + 1)) { (b) throws(NetlinkError) in
                            try b.put(B.band, band.band.rawValue)
                            if let frequency = band.frequency {
                                try b.put(B.freq, UInt16(truncatingIfNeeded: frequency.rawValue))
                            }
                            if let close = band.rssiClose { try b.put(B.rssiClose, close) }
                            if let middle = band.rssiMiddle { try b.put(B.rssiMiddle, middle) }
                            if let wake = band.wakeDiscoveryWindowInterval { try b.put(B.wakeDw, wake) }
                            if band.disableScan { try b.putFlag(B.disableScan) }
                        }
                    }
                }
            }
            if let period = c.scanPeriodSeconds { try n.put(C.scanPeriod, period) }
            if let dwell = c.scanDwellTimeTU { try n.put(C.scanDwellTime, dwell) }
            if let interval = c.discoveryBeaconIntervalTU { try n.put(C.discoveryBeaconInterval, interval) }
            if c.notifyDiscoveryWindows { try n.putFlag(C.notifyDw) }
        }
    }

    /// `REGISTER_FRAME`: deliver received frames of `type` starting with `prefix` to this socket.
    static func registerFrame(
        _ wdev: WirelessDeviceID, type: FrameType, prefix: [UInt8]
    ) throws(NetlinkError) -> NL80211Request {
        try build(.registerFrame) { (w) throws(NetlinkError) in
            try w.put(A.wdev, wdev.rawValue)
            try w.put(A.frameType, type.rawValue)
            try w.put(A.frameMatch, bytes: prefix)
        }
    }

    /// `FRAME`: transmit a management frame.
    static func sendFrame(
        _ frame: [UInt8], wdev: WirelessDeviceID, frequency: Frequency?,
        options: FrameSendOptions
    ) throws(NetlinkError) -> NL80211Request {
        try build(.frame) { (w) throws(NetlinkError) in
            try w.put(A.wdev, wdev.rawValue)
            if let frequency { try w.put(A.wiphyFreq, frequency.rawValue) }
            if let duration = options.offChannelDurationMilliseconds { try w.put(A.duration, duration) }
            if options.allowOffChannel { try w.putFlag(A.offchannelTxOk) }
            if !options.waitForAck { try w.putFlag(A.dontWaitForAck) }
            try w.put(A.frame, bytes: frame)
        }
    }
}

/// Options for ``NL80211Session/sendFrame(_:on:frequency:options:)``.
public struct FrameSendOptions: Sendable, Hashable {
    /// Report the frame's fate in a `frameTxStatus` event (otherwise no status is sent).
    public var waitForAck: Bool
    /// Allow sending on a channel other than the current one (`OFFCHANNEL_TX_OK`).
    public var allowOffChannel: Bool
    /// How long to stay off channel, in ms (`DURATION`).
    public var offChannelDurationMilliseconds: UInt32?

    /// Creates options; the defaults ask for a TX status and stay on channel.
    public init(waitForAck: Bool = true, allowOffChannel: Bool = false, offChannelDurationMilliseconds: UInt32? = nil) {
        self.waitForAck = waitForAck
        self.allowOffChannel = allowOffChannel
        self.offChannelDurationMilliseconds = offChannelDurationMilliseconds
    }
}
