/// One set of interfaces a radio can run at the same time.
///
/// The corresponding nl80211 attribute is one entry of `NL80211_ATTR_INTERFACE_COMBINATIONS`.
public struct InterfaceCombination: Sendable, Hashable {
    /// How many interfaces of which types may coexist.
    public var limits: [InterfaceLimit]
    /// The maximum total number of interfaces. `NL80211_IFACE_COMB_MAXNUM`.
    public var maxInterfaces: UInt32
    /// How many different channels may be in use. `NL80211_IFACE_COMB_NUM_CHANNELS`.
    public var channels: UInt32

    /// Creates a value (mostly for tests).
    public init(limits: [InterfaceLimit], maxInterfaces: UInt32, channels: UInt32) {
        self.limits = limits
        self.maxInterfaces = maxInterfaces
        self.channels = channels
    }

    /// The most interfaces of `type` this combination allows (0 if it does not allow it).
    public func maximum(of type: InterfaceType) -> UInt32 {
        limits.filter { $0.types.contains(type) }.map(\.max).max() ?? 0
    }
}

/// At most `max` interfaces of the given types. `NL80211_IFACE_LIMIT_*`.
public struct InterfaceLimit: Sendable, Hashable {
    /// The maximum number.
    public var max: UInt32
    /// The types counted against this limit.
    public var types: [InterfaceType]

    /// Creates a value (mostly for tests).
    public init(max: UInt32, types: [InterfaceType]) {
        self.max = max
        self.types = types
    }
}

extension InterfaceCombination {
    /// Decodes one combination.
    init(decoding attributes: NetlinkAttributes) throws(NetlinkError) {
        typealias C = NL80211InterfaceCombinationAttribute
        var limits: [InterfaceLimit] = []
        for limit in try attributes.nested(C.limits)?.all ?? [] {
            let limitAttributes = try limit.nested()
            let types =
                try limitAttributes.nested(NL80211InterfaceLimitAttribute.types)?.all
                .map { InterfaceType(rawValue: UInt32($0.type)) } ?? []
            limits.append(
                InterfaceLimit(
                    max: try limitAttributes.integer(NL80211InterfaceLimitAttribute.max, as: UInt32.self) ?? 0,
                    types: types))
        }
        self.init(
            limits: limits,
            maxInterfaces: try attributes.integer(C.maxnum, as: UInt32.self) ?? 0,
            channels: try attributes.integer(C.numChannels, as: UInt32.self) ?? 0)
    }
}
