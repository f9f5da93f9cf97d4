public import NANWire
/// Where a station lives: on the NAN management interface (a peer NMI) or on a NAN data interface
/// (a peer NDI, tied to its NMI station).
public enum StationScope: Sendable, Hashable {
    /// A peer NMI station, on our NAN interface (`NL80211_ATTR_WDEV`).
    case managementInterface(WirelessDeviceID)
    /// A peer NDI station on our NDI netdev (`NL80211_ATTR_IFINDEX`), belonging to the peer NMI
    /// `peerManagementAddress` (`NL80211_ATTR_NAN_NMI_MAC`).
    case dataInterface(InterfaceIndex, peerManagementAddress: MACAddress)
}

/// Station flags to set or clear. `enum nl80211_sta_flags` in `struct nl80211_sta_flag_update`.
public struct StationFlags: OptionSet, Hashable, Sendable {
    /// Bit N stands for flag N.
    public let rawValue: UInt32
    /// Wraps the bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    private init(_ flag: NL80211StationFlag) { rawValue = 1 << flag.rawValue }

    /// 802.1X authorized: data may flow.
    public static let authorized = StationFlags(.authorized)
    /// QoS (WMM).
    public static let wme = StationFlags(.wme)
    /// Management frame protection.
    public static let managementFrameProtection = StationFlags(.mfp)
    /// Authenticated.
    public static let authenticated = StationFlags(.authenticated)
    /// Associated. The kernel adds NAN stations only as authenticated or associated.
    public static let associated = StationFlags(.associated)
}

/// A peer station to add with ``NL80211Session/addStation(_:)`` (`NL80211_CMD_NEW_STATION`).
///
/// Linux 7.2's rules for NAN stations, which ``NL80211Request/newStation(_:)`` checks before sending:
/// no supported rates; flags only from authenticated, associated, authorized and MFP, with authenticated or
/// associated set (WME is the kernel's: it sets it on NDI stations itself and refuses it in the mask); an NDI
/// station names its NMI station (`NAN_NMI_MAC`) and carries no capabilities. The peer's HT/VHT capabilities
/// go to its NMI station with ``NL80211Session/updateStation(_:)`` (`SET_STATION`), not here: NEW_STATION
/// drops HT/VHT capabilities of a station added without WME, which a NAN station cannot ask for, and the kernel
/// then refuses every NDI station of that peer (EINVAL: its NMI station has no HT).
public struct NANStationParameters: Sendable, Hashable {
    /// The interface the station belongs to.
    public var scope: StationScope
    /// The peer's address (its NMI or NDI address).
    public var peer: MACAddress
    /// Flags to change (`mask`): a subset of authenticated, associated, authorized and MFP.
    public var flagMask: StationFlags
    /// The values of the flags in ``flagMask``; must hold `.authenticated` or `.associated`.
    public var flagSet: StationFlags
    /// Listen interval (`STA_LISTEN_INTERVAL`); nil leaves it out (optional for NAN stations).
    public var listenInterval: UInt16?
    /// Association ID (`STA_AID`), 1…2007; nil leaves it out (optional for NAN stations).
    public var associationID: UInt16?

    /// Creates parameters: by default the station is added authenticated and associated, not authorized.
    public init(
        scope: StationScope, peer: MACAddress, flagMask: StationFlags = [.authenticated, .associated],
        flagSet: StationFlags = [.authenticated, .associated],
        listenInterval: UInt16? = nil, associationID: UInt16? = nil
    ) {
        self.scope = scope
        self.peer = peer
        self.flagMask = flagMask
        self.flagSet = flagSet
        self.listenInterval = listenInterval
        self.associationID = associationID
    }
}

/// A peer's HT (and VHT) Capabilities element bodies, for its NMI station. mac80211 parses them against the
/// radio's own NAN PHY capabilities and copies the result to the peer's NDI stations, which it refuses while
/// the NMI station has no HT.
public struct NANPeerCapabilities: Sendable, Hashable {
    /// The HT Capabilities element body: exactly 26 bytes (`NL80211_HT_CAPABILITY_LEN`).
    public var ht: [UInt8]
    /// The VHT Capabilities element body: exactly 12 bytes, if the peer has VHT.
    public var vht: [UInt8]?

    /// The length of an HT Capabilities element body.
    public static let htLength = 26
    /// The length of a VHT Capabilities element body.
    public static let vhtLength = 12

    /// Wraps the element bodies; nil unless the HT body is 26 bytes and the VHT body, if any, 12 bytes (the
    /// kernel's attribute policy would refuse other lengths).
    public init?(ht: [UInt8], vht: [UInt8]? = nil) {
        guard ht.count == Self.htLength, vht.map({ $0.count == Self.vhtLength }) ?? true else { return nil }
        self.ht = ht
        self.vht = vht
    }
}

/// A change to an existing NAN station with ``NL80211Session/updateStation(_:)`` (`NL80211_CMD_SET_STATION`).
/// Linux 7.2 lets a NAN station change only its authorized and MFP flags, and an NMI station take the peer's
/// capabilities.
public struct NANStationUpdate: Sendable, Hashable {
    /// The interface the station is on.
    public var scope: StationScope
    /// The peer's address (its NMI or NDI address).
    public var peer: MACAddress
    /// Flags to change: a subset of authorized and MFP.
    public var flagMask: StationFlags
    /// The values of the flags in ``flagMask``.
    public var flagSet: StationFlags
    /// The peer's capabilities (NMI stations only).
    public var capabilities: NANPeerCapabilities?

    /// Creates a change.
    public init(
        scope: StationScope, peer: MACAddress, flagMask: StationFlags, flagSet: StationFlags,
        capabilities: NANPeerCapabilities? = nil
    ) {
        self.scope = scope
        self.peer = peer
        self.flagMask = flagMask
        self.flagSet = flagSet
        self.capabilities = capabilities
    }

    /// Authorizes the station (and, for an NMI station, gives it the peer's capabilities), as wpa_supplicant
    /// does once a data path is agreed.
    public static func authorize(
        _ scope: StationScope, peer: MACAddress, capabilities: NANPeerCapabilities? = nil
    ) -> NANStationUpdate {
        NANStationUpdate(
            scope: scope, peer: peer, flagMask: .authorized, flagSet: .authorized, capabilities: capabilities)
    }
}

/// A bit rate as the kernel reports it (`enum nl80211_rate_info`).
public struct BitRate: Sendable, Hashable {
    /// Which PHY the rate belongs to: it decides how an MCS index reads.
    public enum Modulation: String, Sendable, Hashable {
        /// OFDM/DSSS without an MCS (a bare bit rate).
        case legacy
        /// HT (802.11n): MCS 0…31, the stream count in the index (MCS / 8 + 1).
        case ht
        /// VHT (802.11ac).
        case vht
        /// HE (802.11ax).
        case he
        /// EHT (802.11be).
        case eht
    }

    /// The rate in units of 100 kbit/s (`BITRATE32`, else `BITRATE`), if the kernel could compute it.
    public var hundredKilobitsPerSecond: UInt32?
    /// The MCS index (HT `MCS`, else VHT, HE or EHT MCS).
    public var mcs: UInt8?
    /// Spatial streams as the kernel sent them (VHT/HE/EHT only; see ``streams`` for HT).
    public var spatialStreams: UInt8?
    /// The channel width used.
    public var width: ChannelWidth
    /// The PHY of the rate.
    public var modulation: Modulation = .legacy
    /// Whether a short (400 ns) guard interval is used (`SHORT_GI`).
    public var shortGuardInterval: Bool = false

    /// The rate in Mbit/s, if known.
    public var megabitsPerSecond: Double? { hundredKilobitsPerSecond.map { Double($0) / 10 } }

    /// The number of spatial streams: the kernel's for VHT/HE/EHT, MCS / 8 + 1 for HT, 1 for legacy rates.
    public var streams: Int {
        if let spatialStreams, spatialStreams > 0 { return Int(spatialStreams) }
        if modulation == .ht, let mcs { return Int(mcs) / 8 + 1 }
        return 1
    }

    /// The width in MHz (20 for a 20 MHz channel with or without HT).
    public var widthMHz: Int {
        switch width {
        case .mhz40: 40
        case .mhz80: 80
        case .mhz160: 160
        case .mhz320: 320
        default: 20
        }
    }

    /// `MCS 7 x1 20 MHz 65.0 Mbit/s`, or what is known of it.
    public var summary: String {
        var parts: [String] = []
        if let mcs {
            parts.append("\(modulation == .legacy ? "" : modulation.rawValue.uppercased() + " ")MCS \(mcs) x\(streams)")
        }
        parts.append("\(widthMHz) MHz")
        if shortGuardInterval { parts.append("SGI") }
        if let rate = megabitsPerSecond { parts.append("\(rate) Mbit/s") }
        return parts.joined(separator: " ")
    }
}

/// One traffic identifier's counters (`NL80211_STA_INFO_TID_STATS`): TIDs 0…15 are the 802.11 user
/// priorities (0/3 best effort, 1/2 background, 4/5 video, 6/7 voice), TID 16 is non-QoS traffic.
public struct StationTIDStatistics: Sendable, Hashable {
    /// 0…15, or 16 for non-QoS frames.
    public var tid: Int
    /// MSDUs received.
    public var receivedMSDUs: UInt64?
    /// MSDUs sent (or attempted).
    public var transmittedMSDUs: UInt64?
    /// Retries of MSDUs sent.
    public var transmitRetries: UInt64?
    /// MSDUs that failed to go out.
    public var transmitFailures: UInt64?

    /// Creates counters.
    public init(
        tid: Int, receivedMSDUs: UInt64? = nil, transmittedMSDUs: UInt64? = nil,
        transmitRetries: UInt64? = nil, transmitFailures: UInt64? = nil
    ) {
        self.tid = tid
        self.receivedMSDUs = receivedMSDUs
        self.transmittedMSDUs = transmittedMSDUs
        self.transmitRetries = transmitRetries
        self.transmitFailures = transmitFailures
    }

    /// Whether any counter is above zero.
    public var isActive: Bool {
        [receivedMSDUs, transmittedMSDUs, transmitRetries, transmitFailures].contains { ($0 ?? 0) > 0 }
    }
}

/// A station's statistics, from `GET_STATION` (`NL80211_ATTR_STA_INFO`): the raw material of a link
/// performance report.
public struct StationInfo: Sendable, Hashable {
    /// The peer's address.
    public var peer: MACAddress
    /// The interface index the station is on, if it is a netdev.
    public var interface: InterfaceIndex?
    /// The wireless device the station is on (the NAN interface for NMI stations).
    public var wdev: WirelessDeviceID?
    /// Milliseconds since the last activity.
    public var inactiveMilliseconds: UInt32?
    /// Bytes received (64-bit counter when available).
    public var receivedBytes: UInt64?
    /// Bytes sent (64-bit counter when available).
    public var transmittedBytes: UInt64?
    /// Packets received.
    public var receivedPackets: UInt32?
    /// Packets sent.
    public var transmittedPackets: UInt32?
    /// Transmit retries.
    public var transmitRetries: UInt32?
    /// Transmit failures.
    public var transmitFailures: UInt32?
    /// Signal of the last frame, dBm.
    public var signalDBM: Int8?
    /// Average signal, dBm.
    public var averageSignalDBM: Int8?
    /// Signal of the last ACK, dBm.
    public var ackSignalDBM: Int8?
    /// The current transmit rate.
    public var transmitRate: BitRate?
    /// The rate of the last received frame.
    public var receiveRate: BitRate?
    /// Seconds since the station was added.
    public var connectedSeconds: UInt32?
    /// Expected throughput, kbit/s.
    public var expectedThroughputKbps: UInt32?
    /// Received packets dropped for unspecified reasons (`RX_DROP_MISC`).
    public var receiveDropped: UInt64? = nil
    /// Average signal of the peer's ACKs, dBm.
    public var ackSignalAverageDBM: Int8? = nil
    /// Air time spent receiving from the peer, microseconds (`RX_DURATION`).
    public var receiveAirtimeMicroseconds: UInt64? = nil
    /// Air time spent sending to the peer, microseconds (`TX_DURATION`).
    public var transmitAirtimeMicroseconds: UInt64? = nil
    /// Per-TID counters, in TID order, when the driver keeps them (only TIDs the kernel listed).
    public var tidStatistics: [StationTIDStatistics] = []
}

extension BitRate {
    /// Decodes a nested rate-info attribute.
    init(decoding r: NetlinkAttributes) throws(NetlinkError) {
        typealias R = NL80211RateInfoAttribute
        let rate32 = try r.integer(R.bitrate32, as: UInt32.self)
        let rate16 = try r.integer(R.bitrate, as: UInt16.self).map(UInt32.init)
        var mcs = try r.integer(R.mcs, as: UInt8.self)
        var modulation: Modulation = mcs == nil ? .legacy : .ht
        var nss: UInt8?
        for (m, n, kind) in [(R.vhtMcs, R.vhtNss, Modulation.vht), (R.heMcs, R.heNss, .he), (R.ehtMcs, R.ehtNss, .eht)]
        where mcs == nil {
            mcs = try r.integer(m, as: UInt8.self)
            nss = try r.integer(n, as: UInt8.self)
            if mcs != nil { modulation = kind }
        }
        var width = ChannelWidth.mhz20
        if r.has(R._40MhzWidth) { width = .mhz40 }
        if r.has(R._80MhzWidth) { width = .mhz80 }
        if r.has(R._160MhzWidth) { width = .mhz160 }
        if r.has(R._320MhzWidth) { width = .mhz320 }
        self.init(
            hundredKilobitsPerSecond: rate32 ?? rate16, mcs: mcs, spatialStreams: nss, width: width,
            modulation: modulation, shortGuardInterval: r.has(R.shortGi))
    }
}

extension StationTIDStatistics {
    /// Decodes `NL80211_STA_INFO_TID_STATS`: one nested attribute per TID, numbered TID + 1 (17 is
    /// non-QoS). Entries with an unknown number are skipped; at most 17 are kept.
    static func decodeAll(_ nested: NetlinkAttributes) throws(NetlinkError) -> [StationTIDStatistics] {
        typealias T = NL80211TIDStatsAttribute
        var result: [StationTIDStatistics] = []
        for attribute in nested.all where (1...17).contains(attribute.type) {
            let t = try attribute.nested()
            let entry = StationTIDStatistics(
                tid: Int(attribute.type) - 1,
                receivedMSDUs: try t.integer(T.rxMsdu, as: UInt64.self),
                transmittedMSDUs: try t.integer(T.txMsdu, as: UInt64.self),
                transmitRetries: try t.integer(T.txMsduRetries, as: UInt64.self),
                transmitFailures: try t.integer(T.txMsduFailed, as: UInt64.self))
            if !result.contains(where: { $0.tid == entry.tid }) { result.append(entry) }
        }
        return result.sorted { $0.tid < $1.tid }
    }
}

extension StationInfo {
    /// Decodes one `GET_STATION` reply or dump message.
    init(decoding attributes: NetlinkAttributes) throws(NetlinkError) {
        typealias S = NL80211StationInfoAttribute
        guard let macBytes = attributes.bytes(NL80211Attribute.mac), let peer = MACAddress(bytes: macBytes) else {
            throw NetlinkError(
                code: .malformedMessage, call: "NL80211_CMD_GET_STATION", detail: "station without a 6-byte address")
        }
        let s = try attributes.nested(NL80211Attribute.staInfo) ?? NetlinkAttributes()
        func rate(_ key: S) throws(NetlinkError) -> BitRate? {
            guard let nested = try s.nested(key) else { return nil }
            return try BitRate(decoding: nested)
        }
        let rx32 = try s.integer(S.rxBytes, as: UInt32.self).map(UInt64.init)
        let tx32 = try s.integer(S.txBytes, as: UInt32.self).map(UInt64.init)
        let rx64 = try s.integer(S.rxBytes64, as: UInt64.self) ?? rx32
        let tx64 = try s.integer(S.txBytes64, as: UInt64.self) ?? tx32
        self.init(
            peer: peer,
            interface: try attributes.integer(NL80211Attribute.ifindex, as: UInt32.self).map(
                InterfaceIndex.init(rawValue:)),
            wdev: try attributes.integer(NL80211Attribute.wdev, as: UInt64.self).map(WirelessDeviceID.init(rawValue:)),
            inactiveMilliseconds: try s.integer(S.inactiveTime, as: UInt32.self),
            receivedBytes: rx64,
            transmittedBytes: tx64,
            receivedPackets: try s.integer(S.rxPackets, as: UInt32.self),
            transmittedPackets: try s.integer(S.txPackets, as: UInt32.self),
            transmitRetries: try s.integer(S.txRetries, as: UInt32.self),
            transmitFailures: try s.integer(S.txFailed, as: UInt32.self),
            signalDBM: try s.integer(S.signal, as: Int8.self),
            averageSignalDBM: try s.integer(S.signalAvg, as: Int8.self),
            ackSignalDBM: try s.integer(S.ackSignal, as: Int8.self),
            transmitRate: try rate(.txBitrate),
            receiveRate: try rate(.rxBitrate),
            connectedSeconds: try s.integer(S.connectedTime, as: UInt32.self),
            expectedThroughputKbps: try s.integer(S.expectedThroughput, as: UInt32.self),
            receiveDropped: try s.integer(S.rxDropMisc, as: UInt64.self),
            ackSignalAverageDBM: try s.integer(S.ackSignalAvg, as: Int8.self),
            receiveAirtimeMicroseconds: try s.integer(S.rxDuration, as: UInt64.self),
            transmitAirtimeMicroseconds: try s.integer(S.txDuration, as: UInt64.self),
            tidStatistics: try s.nested(S.tidStats).map { (n) throws(NetlinkError) in
                try StationTIDStatistics.decodeAll(n)
            } ?? [])
    }
}

extension NL80211Request {
    /// The interface attribute; `naming` adds the NDI station's NMI (`NAN_NMI_MAC`, NEW_STATION only).
    private static func putScope(
        _ scope: StationScope, into w: inout NetlinkAttributeWriter, naming: Bool = true
    ) throws(NetlinkError) {
        switch scope {
        case .managementInterface(let wdev):
            try w.put(A.wdev, wdev.rawValue)
        case .dataInterface(let index, let nmi):
            try w.put(A.ifindex, index.rawValue)
            if naming { try w.put(A.nanNmiMac, bytes: nmi.bytes) }
        }
    }

    private static func putFlags(
        mask: StationFlags, set: StationFlags, into w: inout NetlinkAttributeWriter
    ) throws(NetlinkError) {
        guard !mask.isEmpty else { return }
        var payload: [UInt8] = []
        appendU32(&payload, mask.rawValue)
        appendU32(&payload, set.intersection(mask).rawValue)
        try w.put(A.staFlags2, bytes: payload)
    }

    /// The flags Linux 7.2 lets a NEW_STATION for a NAN station touch.
    static let nanNewStationFlags: StationFlags = [
        .authenticated, .associated, .authorized, .managementFrameProtection,
    ]
    /// The flags Linux 7.2 lets a SET_STATION for a NAN station touch.
    static let nanChangeableFlags: StationFlags = [.authorized, .managementFrameProtection]

    /// `NEW_STATION`. Checks the rules Linux 7.2 enforces for NAN stations before sending, so a mistake
    /// is named here rather than answered with a bare EINVAL.
    static func newStation(_ p: NANStationParameters) throws(NetlinkError) -> NL80211Request {
        let call = "NL80211_CMD_NEW_STATION"
        guard p.flagMask.isSubset(of: nanNewStationFlags) else {
            throw NetlinkError(
                code: .invalidRequest, call: call,
                detail:
                    "a NAN station's flags may only be authenticated, associated, authorized and MFP (the kernel sets WME itself)"
            )
        }
        guard !p.flagSet.intersection(p.flagMask).isDisjoint(with: [.authenticated, .associated]) else {
            throw NetlinkError(
                code: .invalidRequest, call: call,
                detail: "a NAN station must be added authenticated or associated")
        }
        if let aid = p.associationID, !(1...2007).contains(aid) {
            throw NetlinkError(code: .invalidRequest, call: call, detail: "association ID \(aid) is outside 1...2007")
        }
        var w = NetlinkAttributeWriter()
        try putScope(p.scope, into: &w)
        try w.put(A.mac, bytes: p.peer.bytes)
        try putFlags(mask: p.flagMask, set: p.flagSet, into: &w)
        if let interval = p.listenInterval { try w.put(A.staListenInterval, interval) }
        if let aid = p.associationID { try w.put(A.staAid, aid) }
        return NL80211Request(command: .newStation, attributes: w.bytes)
    }

    /// `SET_STATION` on a NAN station: its authorized/MFP flags and, for an NMI station, the peer's
    /// capabilities. Checks Linux 7.2's rules before sending.
    static func updateStation(_ u: NANStationUpdate) throws(NetlinkError) -> NL80211Request {
        let call = "NL80211_CMD_SET_STATION"
        guard u.flagMask.isSubset(of: nanChangeableFlags) else {
            throw NetlinkError(
                code: .invalidRequest, call: call,
                detail: "a NAN station may only change its authorized and MFP flags")
        }
        if case .dataInterface = u.scope, u.capabilities != nil {
            throw NetlinkError(
                code: .invalidRequest, call: call,
                detail: "HT/VHT capabilities belong on the NMI station, not the NDI station")
        }
        var w = NetlinkAttributeWriter()
        try putScope(u.scope, into: &w, naming: false)
        try w.put(A.mac, bytes: u.peer.bytes)
        try putFlags(mask: u.flagMask, set: u.flagSet, into: &w)
        if let capabilities = u.capabilities {
            try w.put(A.htCapability, bytes: capabilities.ht)
            if let vht = capabilities.vht { try w.put(A.vhtCapability, bytes: vht) }
        }
        return NL80211Request(command: .setStation, attributes: w.bytes)
    }

    /// `SET_STATION`: change a station's flags (e.g. authorize it once keys are in place).
    static func setStation(
        _ scope: StationScope, peer: MACAddress, mask: StationFlags, set: StationFlags
    ) throws(NetlinkError) -> NL80211Request {
        try updateStation(NANStationUpdate(scope: scope, peer: peer, flagMask: mask, flagSet: set))
    }

    /// `DEL_STATION`.
    static func deleteStation(_ scope: StationScope, peer: MACAddress) throws(NetlinkError) -> NL80211Request {
        var w = NetlinkAttributeWriter()
        try putScope(scope, into: &w, naming: false)
        try w.put(A.mac, bytes: peer.bytes)
        return NL80211Request(command: .delStation, attributes: w.bytes)
    }

    /// `GET_STATION` dump of one interface (by netdev index or wdev).
    static func getStationDump(
        interface: InterfaceIndex?, wdev: WirelessDeviceID?
    ) throws(NetlinkError) -> NL80211Request {
        var w = NetlinkAttributeWriter()
        if let interface { try w.put(A.ifindex, interface.rawValue) }
        if let wdev { try w.put(A.wdev, wdev.rawValue) }
        return NL80211Request(command: .getStation, attributes: w.bytes, dump: true)
    }
}
