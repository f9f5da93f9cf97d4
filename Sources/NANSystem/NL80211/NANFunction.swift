public import NANWire
/// An offloaded NAN function (publish, subscribe or follow-up) for drivers that run the discovery
/// engine themselves (no ``NANCapabilities/userSpaceDiscoveryEngine``). `NL80211_ATTR_NAN_FUNC`.
public struct NANFunction: Sendable, Hashable {
    /// Publish, subscribe or follow-up.
    public var type: NANFunctionType
    /// The service id (first 6 bytes of SHA-256 of the lower-cased service name).
    public var serviceID: ServiceID
    /// Publish only: solicited and/or unsolicited.
    public var publishType: NANPublishType
    /// Publish only: send solicited replies by broadcast.
    public var publishBroadcast: Bool
    /// Subscribe only: active (send subscribe messages) rather than passive.
    public var subscribeActive: Bool
    /// Follow-up only: the local instance this follow-up belongs to.
    public var followUpID: InstanceID?
    /// Follow-up only: the peer's instance id.
    public var followUpRequestorID: InstanceID?
    /// Follow-up only: the peer's address.
    public var followUpDestination: MACAddress?
    /// Match only peers in close range.
    public var closeRange: Bool
    /// Lifetime in discovery windows; nil for unlimited.
    public var timeToLive: UInt32?
    /// Service specific info (at most 255 bytes).
    public var serviceInfo: [UInt8]?
    /// The service response filter.
    public var serviceResponseFilter: NANServiceResponseFilter?
    /// Receive match filter elements (an empty element is a wildcard).
    public var receiveMatchFilter: [[UInt8]]?
    /// Transmit match filter elements (an empty element is a wildcard).
    public var transmitMatchFilter: [[UInt8]]?

    /// Creates a function description.
    public init(
        type: NANFunctionType, serviceID: ServiceID, publishType: NANPublishType = [],
        publishBroadcast: Bool = false, subscribeActive: Bool = false, followUpID: InstanceID? = nil,
        followUpRequestorID: InstanceID? = nil, followUpDestination: MACAddress? = nil, closeRange: Bool = false,
        timeToLive: UInt32? = nil, serviceInfo: [UInt8]? = nil,
        serviceResponseFilter: NANServiceResponseFilter? = nil, receiveMatchFilter: [[UInt8]]? = nil,
        transmitMatchFilter: [[UInt8]]? = nil
    ) {
        self.type = type
        self.serviceID = serviceID
        self.publishType = publishType
        self.publishBroadcast = publishBroadcast
        self.subscribeActive = subscribeActive
        self.followUpID = followUpID
        self.followUpRequestorID = followUpRequestorID
        self.followUpDestination = followUpDestination
        self.closeRange = closeRange
        self.timeToLive = timeToLive
        self.serviceInfo = serviceInfo
        self.serviceResponseFilter = serviceResponseFilter
        self.receiveMatchFilter = receiveMatchFilter
        self.transmitMatchFilter = transmitMatchFilter
    }
}

/// A service response filter: which subscribers a publisher answers. `enum nl80211_nan_srf_attributes`.
public struct NANServiceResponseFilter: Sendable, Hashable {
    /// How the filter names the subscribers.
    public enum Content: Sendable, Hashable {
        /// A Bloom filter (at most 255 bytes) and its index.
        case bloomFilter([UInt8], index: UInt8)
        /// A list of subscriber addresses.
        case addresses([MACAddress])
    }

    /// Answer the listed subscribers (true) or everyone except them (false).
    public var include: Bool
    /// The subscribers.
    public var content: Content

    /// Creates a filter.
    public init(include: Bool, content: Content) {
        self.include = include
        self.content = content
    }
}

/// The kernel's answer to ``NL80211Session/addNANFunction(_:on:)``.
public struct NANFunctionHandle: Sendable, Hashable {
    /// The handle for removing the function and for matching events.
    public var cookie: NANFunctionCookie
    /// The instance id the device gave the function.
    public var instanceID: InstanceID
}

extension NL80211Request {
    /// `ADD_NAN_FUNCTION`.
    static func addNANFunction(_ wdev: WirelessDeviceID, _ f: NANFunction) throws(NetlinkError) -> NL80211Request {
        typealias F = NL80211NANFunctionAttribute
        let call = "NL80211_CMD_ADD_NAN_FUNCTION"
        if let info = f.serviceInfo, info.count > 255 {
            throw NetlinkError(
                code: .invalidRequest, call: call, detail: "service info of \(info.count) bytes exceeds 255")
        }
        if case .bloomFilter(let bits, _)? = f.serviceResponseFilter?.content, bits.count > 255 || bits.isEmpty {
            throw NetlinkError(
                code: .invalidRequest, call: call, detail: "a Bloom filter has 1…255 bytes, got \(bits.count)")
        }
        if f.type == .followUp && (f.followUpID == nil || f.followUpRequestorID == nil || f.followUpDestination == nil)
        {
            throw NetlinkError(
                code: .invalidRequest, call: call, detail: "a follow-up needs its id, requestor id and destination")
        }
        var w = NetlinkAttributeWriter()
        try w.put(A.wdev, wdev.rawValue)
        try w.nest(A.nanFunc) { (n) throws(NetlinkError) in
            try n.put(F.type, f.type.rawValue)
            try n.put(F.serviceId, bytes: f.serviceID.bytes)
            if f.type == .publish { try n.put(F.publishType, f.publishType.rawValue) }
            if f.publishBroadcast { try n.putFlag(F.publishBcast) }
            if f.subscribeActive { try n.putFlag(F.subscribeActive) }
            if let id = f.followUpID { try n.put(F.followUpId, id.rawValue) }
            if let id = f.followUpRequestorID { try n.put(F.followUpReqId, id.rawValue) }
            if let destination = f.followUpDestination { try n.put(F.followUpDest, bytes: destination.bytes) }
            if f.closeRange { try n.putFlag(F.closeRange) }
            if let ttl = f.timeToLive { try n.put(F.ttl, ttl) }
            if let info = f.serviceInfo { try n.put(F.serviceInfo, bytes: info) }
            if let srf = f.serviceResponseFilter {
                try n.nest(F.srf) { (s) throws(NetlinkError) in
                    if srf.include { try s.putFlag(NL80211NANSRFAttribute.include) }
                    switch srf.content {
                    case .bloomFilter(let bits, let index):
                        try s.put(NL80211NANSRFAttribute.bf, bytes: bits)
                        try s.put(NL80211NANSRFAttribute.bfIdx, index)
                    case .addresses(let addresses):
                        try s.nest(NL80211NANSRFAttribute.macAddrs) { (list) throws(NetlinkError) in
                            for (position, address) in addresses.enumerated() {
                                try list.putRaw(type: UInt16(position + 1), payload: address.bytes)
                            }
                        }
                    }
                }
            }
            for (key, filter) in [(F.rxMatchFilter, f.receiveMatchFilter), (F.txMatchFilter, f.transmitMatchFilter)] {
                guard let filter else { continue }
                try n.nest(key) { (list) throws(NetlinkError) in
                    for (position, element) in filter.enumerated() {
                        try list.putRaw(type: UInt16(position + 1), payload: element)
                    }
                }
            }
        }
        return NL80211Request(command: .addNanFunction, attributes: w.bytes)
    }

    /// `DEL_NAN_FUNCTION`.
    static func deleteNANFunction(
        _ wdev: WirelessDeviceID, _ cookie: NANFunctionCookie
    ) throws(NetlinkError) -> NL80211Request {
        var w = NetlinkAttributeWriter()
        try w.put(A.wdev, wdev.rawValue)
        try w.put(A.cookie, cookie.rawValue)
        return NL80211Request(command: .delNanFunction, attributes: w.bytes)
    }
}

extension NANFunctionHandle {
    /// Decodes the reply to `ADD_NAN_FUNCTION`: `COOKIE` and `NAN_FUNC { INSTANCE_ID }`.
    init(decoding attributes: NetlinkAttributes) throws(NetlinkError) {
        let cookie = try attributes.required(NL80211Attribute.cookie, as: UInt64.self)
        guard let function = try attributes.nested(NL80211Attribute.nanFunc) else {
            throw NetlinkError(
                code: .malformedMessage, call: "NL80211_CMD_ADD_NAN_FUNCTION",
                detail: "reply without NL80211_ATTR_NAN_FUNC")
        }
        let instance = try function.required(NL80211NANFunctionAttribute.instanceId, as: UInt8.self)
        self.init(cookie: NANFunctionCookie(rawValue: cookie), instanceID: InstanceID(rawValue: instance))
    }
}
