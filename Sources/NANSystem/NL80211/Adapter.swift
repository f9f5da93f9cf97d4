public import NANWire
/// A wireless radio (wiphy) with its interfaces and what it can do for NAN.
public struct Adapter: Sendable, Hashable, Identifiable {
    /// The radio's index.
    public var wiphy: WiphyIndex
    /// The radio's name, e.g. `phy0`.
    public var name: String
    /// The radio's permanent address (from `/sys/class/ieee80211/<phy>/macaddress`), if known.
    public var permanentAddress: MACAddress?
    /// The kernel driver, e.g. `mac80211_hwsim` (from the `device/driver` link in sysfs), if known.
    public var driver: String?
    /// The radio's current interfaces.
    public var interfaces: [WirelessInterface]
    /// The interface types the radio supports (`NL80211_ATTR_SUPPORTED_IFTYPES`).
    public var supportedInterfaceTypes: [InterfaceType]
    /// What the radio offers for NAN.
    public var nan: NANSupport
    /// What the radio offers for NAN unsynchronized service discovery (USD), which needs no NAN support.
    public var usd: USDSupport

    /// The wiphy index.
    public var id: WiphyIndex { wiphy }

    /// Creates a value (mostly for tests).
    public init(
        wiphy: WiphyIndex, name: String, permanentAddress: MACAddress?, driver: String?,
        interfaces: [WirelessInterface], supportedInterfaceTypes: [InterfaceType], nan: NANSupport,
        usd: USDSupport = .none
    ) {
        self.wiphy = wiphy
        self.name = name
        self.permanentAddress = permanentAddress
        self.driver = driver
        self.interfaces = interfaces
        self.supportedInterfaceTypes = supportedInterfaceTypes
        self.nan = nan
        self.usd = usd
    }
}

/// A radio's NAN support, as read from its `GET_WIPHY` description.
public struct NANSupport: Sendable, Hashable {
    /// The radio can create a NAN management interface (iftype `NAN` supported).
    public var managementInterface: Bool
    /// The radio can create NAN data interfaces (iftype `NAN_DATA` supported).
    public var dataInterface: Bool
    /// The driver's NAN capabilities, if it reports them.
    public var capabilities: NANCapabilities?
    /// The bands NAN may use (`NL80211_ATTR_BANDS` in `GET_WIPHY`).
    public var bands: NANBands
    /// NAN pairing (and keys on NAN interfaces) is supported: extended feature `SECURE_NAN`.
    public var secure: Bool
    /// The interface combinations that include NAN or NAN data interfaces.
    public var combinations: [InterfaceCombination]

    /// Creates a value (mostly for tests).
    public init(
        managementInterface: Bool, dataInterface: Bool, capabilities: NANCapabilities?, bands: NANBands,
        secure: Bool, combinations: [InterfaceCombination]
    ) {
        self.managementInterface = managementInterface
        self.dataInterface = dataInterface
        self.capabilities = capabilities
        self.bands = bands
        self.secure = secure
        self.combinations = combinations
    }

    /// Whether NAN discovery can run on this radio.
    public var isSupported: Bool { unsupportedReason == nil }

    /// Why NAN cannot run here, in words a user can act on; nil when it can.
    public var unsupportedReason: String? {
        if !managementInterface {
            return "the driver does not offer NAN interfaces (no NAN in the supported interface types)"
        }
        if !bands.isEmpty && !bands.contains(.band2GHz) {
            return "the driver offers NAN without the mandatory 2.4 GHz band"
        }
        return nil
    }

    /// The most NAN management interfaces any combination allows (nil if no combination mentions them).
    public var maxManagementInterfaces: UInt32? { maximum(of: .nan) }
    /// The most NAN data interfaces any combination allows (nil if no combination mentions them).
    public var maxDataInterfaces: UInt32? { maximum(of: .nanData) }

    private func maximum(of type: InterfaceType) -> UInt32? {
        let values = combinations.map { $0.maximum(of: type) }.filter { $0 > 0 }
        return values.max()
    }
}

extension Adapter {
    /// Builds adapters from a split `GET_WIPHY` dump and a `GET_INTERFACE` dump.
    ///
    /// - Parameters:
    ///   - wiphyMessages: the dump's messages; a split dump sends several per radio, merged here.
    ///   - interfaceMessages: the interface dump's messages.
    ///   - system: where to look up sysfs facts (driver, permanent address) by phy name.
    static func build(
        wiphyMessages: [GenericNetlinkMessage], interfaceMessages: [GenericNetlinkMessage],
        system: AdapterSystemInfo = .sysfs
    ) throws(NetlinkError) -> [Adapter] {
        typealias A = NL80211Attribute
        var order: [UInt32] = []
        var merged: [UInt32: [NetlinkAttribute]] = [:]
        for message in wiphyMessages {
            let index = try message.attributes.required(A.wiphy, as: UInt32.self)
            if merged[index] == nil { order.append(index) }
            merged[index, default: []].append(contentsOf: message.attributes.all)
        }
        var interfaces: [UInt32: [WirelessInterface]] = [:]
        for message in interfaceMessages {
            let interface = try WirelessInterface(decoding: message.attributes)
            interfaces[interface.wiphy.rawValue, default: []].append(interface)
        }
        var adapters: [Adapter] = []
        for index in order {
            let attributes = NetlinkAttributes(merged[index] ?? [])
            let name = attributes.string(A.wiphyName) ?? "phy\(index)"
            adapters.append(
                Adapter(
                    wiphy: WiphyIndex(rawValue: index),
                    name: name,
                    permanentAddress: system.permanentAddress(name),
                    driver: system.driver(name),
                    interfaces: interfaces[index] ?? [],
                    supportedInterfaceTypes: try supportedTypes(attributes),
                    nan: try nanSupport(attributes),
                    usd: try USDSupport(decoding: attributes, types: try supportedTypes(attributes))))
        }
        return adapters
    }

    private static func supportedTypes(_ attributes: NetlinkAttributes) throws(NetlinkError) -> [InterfaceType] {
        try attributes.nested(NL80211Attribute.supportedIftypes)?.all.map { InterfaceType(rawValue: UInt32($0.type)) }
            ?? []
    }

    private static func nanSupport(_ attributes: NetlinkAttributes) throws(NetlinkError) -> NANSupport {
        typealias A = NL80211Attribute
        let types = try supportedTypes(attributes)
        var combinations: [InterfaceCombination] = []
        for entry in try attributes.nested(A.interfaceCombinations)?.all ?? [] {
            let combination = try InterfaceCombination(decoding: try entry.nested())
            if combination.maximum(of: .nan) > 0 || combination.maximum(of: .nanData) > 0 {
                combinations.append(combination)
            }
        }
        let extendedFeatures = attributes.bytes(A.extFeatures) ?? []
        let secureBit = Int(NL80211ExtendedFeature.secureNan.rawValue)
        let secure =
            secureBit / 8 < extendedFeatures.count && extendedFeatures[secureBit / 8] & (1 << (secureBit % 8)) != 0
        return NANSupport(
            managementInterface: types.contains(.nan) || combinations.contains { $0.maximum(of: .nan) > 0 },
            dataInterface: types.contains(.nanData) || combinations.contains { $0.maximum(of: .nanData) > 0 },
            capabilities: try attributes.nested(A.nanCapabilities).map { (nested) throws(NetlinkError) in
                try NANCapabilities(decoding: nested)
            },
            bands: NANBands(rawValue: try attributes.integer(A.bands, as: UInt32.self) ?? 0),
            secure: secure,
            combinations: combinations)
    }
}
