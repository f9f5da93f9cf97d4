import NANSystem
import NANWire

extension AdapterReport {
    /// The tool's view of a library ``Adapter``.
    init(_ adapter: Adapter) {
        self.init(
            phy: adapter.name,
            wiphy: adapter.wiphy.rawValue,
            driver: adapter.driver,
            address: adapter.permanentAddress?.description,
            interfaceTypes: adapter.supportedInterfaceTypes.map(\.description),
            nan: NANReport(adapter.nan),
            interfaceCombinations: adapter.nan.combinations.map(CombinationReport.init),
            interfaces: adapter.interfaces.map(InterfaceReport.init),
            usd: USDReport(adapter.usd))
    }
}

extension USDReport {
    /// The tool's view of a radio's USD support.
    init(_ support: USDSupport) {
        let longest = support.maximumRemainOnChannel.map { ", listen up to \($0.inWholeMilliseconds) ms" } ?? ""
        self.init(
            supported: support.isSupported,
            summary: support.unsupportedReason ?? "remain-on-channel, action frames\(longest)")
    }
}

extension NANReport {
    /// The tool's view of a radio's NAN support.
    init(_ support: NANSupport) {
        let capabilities = support.capabilities
        let bands = support.bands.bands.map(Self.bandName)
        let summary: String
        if !support.managementInterface {
            summary = Self.noInterfaceTypeSummary
        } else if let reason = support.unsupportedReason {
            summary = reason
        } else {
            summary = Self.supportedSummary(
                userspaceDiscovery: capabilities?.userSpaceDiscoveryEngine ?? false, bands: bands,
                dataPath: support.dataInterface, secure: support.secure)
        }
        self.init(
            supported: support.isSupported,
            summary: summary,
            userspaceDiscovery: capabilities?.userSpaceDiscoveryEngine ?? false,
            configurableSync: capabilities?.configurableSynchronization ?? false,
            bands: bands,
            dataPath: support.dataInterface,
            secure: support.secure,
            operationModes: capabilities?.operationModes.map(NANCapabilityNames.operationModes) ?? [],
            transmitAntennas: capabilities?.transmitAntennas.flatMap { $0 == 0 ? nil : Int($0) },
            receiveAntennas: capabilities?.receiveAntennas.flatMap { $0 == 0 ? nil : Int($0) },
            maxChannelSwitchTimeMicroseconds: capabilities?.maxChannelSwitchTimeMicroseconds.map(Int.init),
            deviceCapabilities: capabilities?.capabilities.map(NANCapabilityNames.deviceCapabilities) ?? [])
    }

    /// `2.4GHz`, `5GHz`, `6GHz`: the library's band name without the space, as udev values need.
    static func bandName(_ band: RadioBand) -> String {
        String(band.description.filter { $0 != " " })
    }
}

extension CombinationReport {
    /// The tool's view of an interface combination.
    init(_ combination: InterfaceCombination) {
        self.init(
            maxInterfaces: Int(combination.maxInterfaces),
            channels: Int(combination.channels),
            limits: combination.limits.map { Limit(max: Int($0.max), types: $0.types.map(\.description)) })
    }
}

extension InterfaceReport {
    /// The tool's view of an interface.
    init(_ interface: WirelessInterface) {
        self.init(
            name: interface.name,
            type: interface.type.description,
            wdev: interface.wdev.description,
            ifindex: interface.index.map { Int($0.rawValue) },
            address: interface.address?.description)
    }
}

extension AdapterReport {
    /// Why NAN cannot be started here by this program, when the adapter already has a NAN interface: drivers
    /// allow one, and NAN may be running on it for another program. Nil when it has none.
    var nanInterfaceInUse: String? {
        guard let existing = interfaces.first(where: { $0.type == InterfaceType.nan.description }) else { return nil }
        return "\(phy) already has a NAN interface (\(existing.label)), so NAN may be running from another program; "
            + "stop it with 'waware cluster stop --adapter \(phy) --delete'"
    }
}
