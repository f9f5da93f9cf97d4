public import NANWire
/// Something nl80211 reported without being asked: NAN cluster and discovery-window events, received
/// frames, transmit status, offload matches, and interfaces or radios disappearing.
public enum NL80211Event: Sendable, Hashable {
    /// The NAN device joined (or, if `isNew`, created) a cluster. `NL80211_CMD_NAN_CLUSTER_JOINED`.
    case clusterJoined(wdev: WirelessDeviceID, clusterID: MACAddress, isNew: Bool)
    /// The next discovery window is about to start on `frequency` (needs `notifyDiscoveryWindows`).
    /// `NL80211_CMD_NAN_NEXT_DW_NOTIFICATION`.
    case nextDiscoveryWindow(wdev: WirelessDeviceID, frequency: Frequency)
    /// A registered management frame arrived. `bytes` is the whole 802.11 frame, header included.
    /// `NL80211_CMD_FRAME`.
    case frameReceived(wdev: WirelessDeviceID?, frequency: Frequency, signalDBM: Int32?, bytes: [UInt8])
    /// The outcome of a frame we sent with ``NL80211Session/sendFrame(_:on:frequency:options:)``: whether
    /// `destination` (address 1 of the frame the kernel gives back; nil without one) acknowledged it.
    /// `NL80211_CMD_FRAME_TX_STATUS`.
    case frameTxStatus(cookie: FrameCookie, acked: Bool, destination: MACAddress? = nil)
    /// A remain-on-channel period started or ended. `NL80211_CMD_REMAIN_ON_CHANNEL`,
    /// `NL80211_CMD_CANCEL_REMAIN_ON_CHANNEL`.
    case remainOnChannel(RemainOnChannelEvent)
    /// An offloaded function matched a peer. `NL80211_CMD_NAN_MATCH`.
    case nanMatch(NANMatch)
    /// An offloaded function ended. `NL80211_CMD_DEL_NAN_FUNCTION` (as an event).
    case nanFunctionTerminated(cookie: NANFunctionCookie, instance: InstanceID, reason: NANTerminationReason)
    /// A deferred local schedule update finished. `NL80211_CMD_NAN_SCHED_UPDATE_DONE`.
    case scheduleUpdateDone(wdev: WirelessDeviceID, success: Bool)
    /// The device's unaligned schedule changed: `schedule` is its new Unaligned Schedule attribute(s)
    /// (Wi-Fi Aware Table 109), to attach to frames sent to peers. `NL80211_CMD_NAN_ULW_UPDATE`.
    case unalignedScheduleUpdated(wiphy: WiphyIndex?, wdev: WirelessDeviceID?, schedule: [UInt8])
    /// The device left NAN channels because another interface needed the radio; the local schedule may
    /// need to move off them. `NL80211_CMD_NAN_CHANNEL_EVAC`.
    case channelsEvacuated(wiphy: WiphyIndex?, wdev: WirelessDeviceID?, channels: [NANEvacuatedChannel])
    /// An interface was created. `NL80211_CMD_NEW_INTERFACE` on the "config" group.
    case interfaceAdded(WirelessInterface)
    /// An interface was removed. `NL80211_CMD_DEL_INTERFACE` on the "config" group.
    case interfaceRemoved(wiphy: WiphyIndex?, wdev: WirelessDeviceID?, interface: InterfaceIndex?)
    /// A radio was removed. `NL80211_CMD_DEL_WIPHY` on the "config" group.
    case wiphyRemoved(WiphyIndex)
    /// Events were lost: the socket's buffer overflowed (`droppedEvents` nil: unknown count) or the
    /// event stream's buffer was full (`droppedEvents`: how many were discarded, oldest first).
    case overrun(droppedEvents: Int?)
    /// An event whose attributes could not be decoded.
    case malformed(command: UInt8, error: NetlinkError)
    /// An nl80211 event this library does not decode.
    case unknown(command: UInt8)
}

/// A match reported by an offloaded discovery engine (`NL80211_CMD_NAN_MATCH`).
public struct NANMatch: Sendable, Hashable {
    /// The NAN device.
    public var wdev: WirelessDeviceID?
    /// Our function that matched.
    public var cookie: NANFunctionCookie
    /// The peer's NAN management interface address.
    public var peer: MACAddress
    /// Our function's instance id.
    public var localInstance: InstanceID
    /// The peer function's instance id.
    public var peerInstance: InstanceID
    /// The peer function's type (publish: discovery result; subscribe: replied; follow-up: message).
    public var peerType: NANFunctionType
    /// The peer's service specific info, if any.
    public var serviceInfo: [UInt8]?
}

extension NL80211Event {
    /// Decodes an nl80211 event message. Total: undecodable events become `.malformed`.
    static func decode(_ message: GenericNetlinkMessage) -> NL80211Event {
        do {
            return try decodeThrowing(message)
        } catch {
            return .malformed(command: message.command, error: error)
        }
    }

    private static func decodeThrowing(_ message: GenericNetlinkMessage) throws(NetlinkError) -> NL80211Event {
        let attributes = message.attributes
        typealias A = NL80211Attribute
        func wdev() throws(NetlinkError) -> WirelessDeviceID? {
            try attributes.integer(A.wdev, as: UInt64.self).map(WirelessDeviceID.init(rawValue:))
        }
        func wiphy() throws(NetlinkError) -> WiphyIndex? {
            try attributes.integer(A.wiphy, as: UInt32.self).map(WiphyIndex.init(rawValue:))
        }
        func requiredWdev() throws(NetlinkError) -> WirelessDeviceID {
            WirelessDeviceID(rawValue: try attributes.required(A.wdev, as: UInt64.self))
        }
        func mac(_ key: A) throws(NetlinkError) -> MACAddress {
            guard let attribute = attributes.first(key) else {
                throw NetlinkError(code: .malformedMessage, call: "decode", detail: "required attribute \(key) missing")
            }
            guard let address = MACAddress(bytes: attribute.payload) else {
                throw .malformed("attribute \(key): \(attribute.payload.count) bytes, expected 6", at: attribute.offset)
            }
            return address
        }

        switch NL80211Command(rawValue: message.command) {
        case .nanClusterJoined:
            return .clusterJoined(
                wdev: try requiredWdev(), clusterID: try mac(.mac),
                isNew: attributes.has(A.nanNewCluster))
        case .nanNextDwNotification:
            return .nextDiscoveryWindow(
                wdev: try requiredWdev(),
                frequency: Frequency(rawValue: try attributes.required(A.wiphyFreq, as: UInt32.self)))
        case .frame:
            guard let frame = attributes.bytes(A.frame) else {
                throw NetlinkError(
                    code: .malformedMessage, call: "decode", detail: "frame event without NL80211_ATTR_FRAME")
            }
            return .frameReceived(
                wdev: try wdev(),
                frequency: Frequency(rawValue: try attributes.integer(A.wiphyFreq, as: UInt32.self) ?? 0),
                signalDBM: try attributes.integer(A.rxSignalDbm, as: Int32.self),
                bytes: frame)
        case .frameTxStatus:
            return .frameTxStatus(
                cookie: FrameCookie(rawValue: try attributes.required(A.cookie, as: UInt64.self)),
                acked: attributes.has(A.ack),
                destination: attributes.bytes(A.frame).flatMap { $0.count >= 10 ? MACAddress(bytes: $0[4..<10]) : nil })
        case .remainOnChannel, .cancelRemainOnChannel:
            return .remainOnChannel(
                RemainOnChannelEvent(
                    wdev: try wdev(),
                    cookie: RemainOnChannelCookie(rawValue: try attributes.required(A.cookie, as: UInt64.self)),
                    frequency: Frequency(rawValue: try attributes.integer(A.wiphyFreq, as: UInt32.self) ?? 0),
                    ended: message.command == NL80211Command.cancelRemainOnChannel.rawValue))
        case .nanMatch:
            return .nanMatch(try NANMatch(decoding: attributes))
        case .delNanFunction:
            let cookie = NANFunctionCookie(rawValue: try attributes.required(A.cookie, as: UInt64.self))
            let function = try attributes.nested(A.nanFunc) ?? NetlinkAttributes()
            let instance = try function.integer(NL80211NANFunctionAttribute.instanceId, as: UInt8.self) ?? 0
            let reason = try function.integer(NL80211NANFunctionAttribute.termReason, as: UInt8.self) ?? 0
            return .nanFunctionTerminated(
                cookie: cookie, instance: InstanceID(rawValue: instance),
                reason: NANTerminationReason(rawValue: reason))
        case .nanSchedUpdateDone:
            return .scheduleUpdateDone(wdev: try requiredWdev(), success: attributes.has(A.nanSchedUpdateSuccess))
        case .nanUlwUpdate:
            guard let schedule = attributes.bytes(A.nanUlw) else {
                throw NetlinkError(
                    code: .malformedMessage, call: "decode", detail: "ULW update without NL80211_ATTR_NAN_ULW")
            }
            return .unalignedScheduleUpdated(wiphy: try wiphy(), wdev: try wdev(), schedule: schedule)
        case .nanChannelEvac:
            var channels: [NANEvacuatedChannel] = []
            for channel in attributes.every(A.nanChannel) {
                channels.append(try NANEvacuatedChannel(decoding: try channel.nested(), offset: channel.offset))
            }
            guard !channels.isEmpty else {
                throw NetlinkError(
                    code: .malformedMessage, call: "decode",
                    detail: "channel evacuation without NL80211_ATTR_NAN_CHANNEL")
            }
            return .channelsEvacuated(wiphy: try wiphy(), wdev: try wdev(), channels: channels)
        case .newInterface:
            return .interfaceAdded(try WirelessInterface(decoding: attributes))
        case .delInterface:
            return .interfaceRemoved(
                wiphy: try wiphy(),
                wdev: try wdev(),
                interface: try attributes.integer(A.ifindex, as: UInt32.self).map(InterfaceIndex.init(rawValue:)))
        case .delWiphy:
            return .wiphyRemoved(WiphyIndex(rawValue: try attributes.required(A.wiphy, as: UInt32.self)))
        default:
            return .unknown(command: message.command)
        }
    }
}

extension NANMatch {
    /// Decodes the attributes of an `NL80211_CMD_NAN_MATCH` event.
    init(decoding attributes: NetlinkAttributes) throws(NetlinkError) {
        typealias A = NL80211Attribute
        typealias F = NL80211NANFunctionAttribute
        guard let peerBytes = attributes.bytes(A.mac), let peer = MACAddress(bytes: peerBytes) else {
            throw NetlinkError(
                code: .malformedMessage, call: "decode", detail: "NAN match without a 6-byte peer address")
        }
        guard let match = try attributes.nested(A.nanMatch),
            let local = try match.nested(NL80211NANMatchAttribute.funcLocal),
            let remote = try match.nested(NL80211NANMatchAttribute.funcPeer)
        else {
            throw NetlinkError(
                code: .malformedMessage, call: "decode", detail: "NAN match without local and peer functions")
        }
        let typeCode = try remote.integer(F.type, as: UInt8.self) ?? 0
        guard let peerType = NANFunctionType(rawValue: typeCode) else {
            throw NetlinkError(
                code: .malformedMessage, call: "decode", detail: "NAN match with peer function type \(typeCode)")
        }
        self.init(
            wdev: try attributes.integer(A.wdev, as: UInt64.self).map(WirelessDeviceID.init(rawValue:)),
            cookie: NANFunctionCookie(rawValue: try attributes.required(A.cookie, as: UInt64.self)),
            peer: peer,
            localInstance: InstanceID(rawValue: try local.integer(F.instanceId, as: UInt8.self) ?? 0),
            peerInstance: InstanceID(rawValue: try remote.integer(F.instanceId, as: UInt8.self) ?? 0),
            peerType: peerType,
            serviceInfo: remote.bytes(F.serviceInfo))
    }
}
