/// A regulatory domain as the kernel applies it: a country (or `00`, the world domain) and its rules.
///
/// From `NL80211_CMD_GET_REG`: the dump returns the global domain first, then the private domain of every
/// radio that manages its own (`NL80211_ATTR_WIPHY_SELF_MANAGED_REG`), each with the radio's index.
public struct RegulatoryDomain: Sendable, Hashable {
    /// The radio this domain belongs to; `nil` for the global domain.
    public var wiphy: WiphyIndex?
    /// The ISO 3166 alpha-2 country code, `00` for the world domain, `99` for a driver-built one.
    public var countryCode: String
    /// The DFS region (`NL80211_ATTR_DFS_REGION`: 0 unset, 1 FCC, 2 ETSI, 3 JP), if reported.
    public var dfsRegion: UInt8?
    /// Whether the radio manages its regulatory domain itself (the kernel's hints do not change it).
    public var selfManaged: Bool
    /// The frequency ranges allowed, with their limits.
    public var rules: [RegulatoryRule]

    /// Creates a value (mostly for tests).
    public init(wiphy: WiphyIndex?, countryCode: String, dfsRegion: UInt8?, selfManaged: Bool, rules: [RegulatoryRule])
    {
        self.wiphy = wiphy
        self.countryCode = countryCode
        self.dfsRegion = dfsRegion
        self.selfManaged = selfManaged
        self.rules = rules
    }

    /// Whether this is the world domain (`00`), which allows 5 GHz only passively, if at all.
    public var isWorld: Bool { countryCode == "00" }

    /// The rule whose range holds the whole 20 MHz channel centred on `frequency`, if any.
    public func rule(covering frequency: Frequency) -> RegulatoryRule? {
        let centre = frequency.rawValue * 1000
        return rules.first { $0.startKHz + 10_000 <= centre && centre + 10_000 <= $0.endKHz }
    }
}

/// One rule of a regulatory domain: a frequency range, its widest channel, its power limit and flags.
public struct RegulatoryRule: Sendable, Hashable {
    /// The start of the range, in kHz.
    public var startKHz: UInt32
    /// The end of the range, in kHz.
    public var endKHz: UInt32
    /// The widest channel allowed, in kHz.
    public var maxBandwidthKHz: UInt32
    /// The maximum EIRP, in mBm (100 × dBm).
    public var maxEIRPmBm: UInt32
    /// Restrictions on the range.
    public var flags: RegulatoryRuleFlags

    /// Creates a value (mostly for tests).
    public init(
        startKHz: UInt32, endKHz: UInt32, maxBandwidthKHz: UInt32, maxEIRPmBm: UInt32, flags: RegulatoryRuleFlags
    ) {
        self.startKHz = startKHz
        self.endKHz = endKHz
        self.maxBandwidthKHz = maxBandwidthKHz
        self.maxEIRPmBm = maxEIRPmBm
        self.flags = flags
    }
}

/// Restrictions of a regulatory rule (`NL80211_RRF_*`), the ones that matter for NAN.
public struct RegulatoryRuleFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    /// Creates flags from the kernel's bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No OFDM modulation.
    public static let noOFDM = RegulatoryRuleFlags(rawValue: NL80211RegulatoryRuleFlag.noOfdm.rawValue)
    /// Not allowed indoors.
    public static let noIndoor = RegulatoryRuleFlags(rawValue: NL80211RegulatoryRuleFlag.noIndoor.rawValue)
    /// Not allowed outdoors.
    public static let noOutdoor = RegulatoryRuleFlags(rawValue: NL80211RegulatoryRuleFlag.noOutdoor.rawValue)
    /// Radar detection (DFS) is required.
    public static let dfs = RegulatoryRuleFlags(rawValue: NL80211RegulatoryRuleFlag.dfs.rawValue)
    /// No initiating radiation: the radio may not transmit first (no beacons, so no NAN master).
    public static let noIR = RegulatoryRuleFlags(rawValue: NL80211RegulatoryRuleFlag.noIr.rawValue)
    /// The bandwidth may span adjacent rules.
    public static let autoBandwidth = RegulatoryRuleFlags(rawValue: NL80211RegulatoryRuleFlag.autoBw.rawValue)

    /// The names of the flags set, as `iw reg get` prints them (`NO-IR`, `DFS`, `AUTO-BW`).
    public var names: [String] {
        var names: [String] = []
        if contains(.noOFDM) { names.append("NO-OFDM") }
        if contains(.noIndoor) { names.append("NO-INDOOR") }
        if contains(.noOutdoor) { names.append("NO-OUTDOOR") }
        if contains(.dfs) { names.append("DFS") }
        if contains(.noIR) { names.append("NO-IR") }
        if contains(.autoBandwidth) { names.append("AUTO-BW") }
        return names
    }
}

extension RegulatoryDomain {
    /// Decodes one `GET_REG` reply message.
    ///
    /// - Throws: ``NetlinkError`` `malformedMessage` when the country code is missing or an attribute is cut.
    init(decoding attributes: NetlinkAttributes) throws(NetlinkError) {
        typealias A = NL80211Attribute
        typealias R = NL80211RegulatoryRuleAttribute
        guard let alpha2 = attributes.string(A.regAlpha2) else {
            throw NetlinkError(
                code: .malformedMessage, call: "NL80211_CMD_GET_REG", detail: "reply without a country code")
        }
        var rules: [RegulatoryRule] = []
        for entry in try attributes.nested(A.regRules)?.all ?? [] {
            let rule = try entry.nested()
            rules.append(
                RegulatoryRule(
                    startKHz: try rule.integer(R.freqRangeStart, as: UInt32.self) ?? 0,
                    endKHz: try rule.integer(R.freqRangeEnd, as: UInt32.self) ?? 0,
                    maxBandwidthKHz: try rule.integer(R.freqRangeMaxBw, as: UInt32.self) ?? 0,
                    maxEIRPmBm: try rule.integer(R.powerRuleMaxEirp, as: UInt32.self) ?? 0,
                    flags: RegulatoryRuleFlags(rawValue: try rule.integer(R.regRuleFlags, as: UInt32.self) ?? 0)))
        }
        self.init(
            wiphy: try attributes.integer(A.wiphy, as: UInt32.self).map(WiphyIndex.init(rawValue:)),
            countryCode: alpha2,
            dfsRegion: try attributes.integer(A.dfsRegion, as: UInt8.self),
            selfManaged: attributes.has(A.wiphySelfManagedReg),
            rules: rules)
    }

    /// Decodes a `GET_REG` dump: the global domain and the radios' own ones.
    static func domains(from messages: [GenericNetlinkMessage]) throws(NetlinkError) -> [RegulatoryDomain] {
        var domains: [RegulatoryDomain] = []
        for message in messages { domains.append(try RegulatoryDomain(decoding: message.attributes)) }
        return domains
    }
}

/// A channel of a radio, as its `GET_WIPHY` band list describes it after regulatory rules are applied.
public struct RadioChannel: Sendable, Hashable {
    /// The centre frequency.
    public var frequency: Frequency
    /// The channel cannot be used at all.
    public var disabled: Bool
    /// The radio may not initiate radiation there (no beacons, no NAN master role, passive only).
    public var noIR: Bool
    /// Radar detection is required there.
    public var radar: Bool
    /// The highest transmit power, in mBm, if reported.
    public var maxTransmitPowerMBm: UInt32?

    /// Creates a value (mostly for tests).
    public init(frequency: Frequency, disabled: Bool, noIR: Bool, radar: Bool, maxTransmitPowerMBm: UInt32? = nil) {
        self.frequency = frequency
        self.disabled = disabled
        self.noIR = noIR
        self.radar = radar
        self.maxTransmitPowerMBm = maxTransmitPowerMBm
    }
}

extension RadioChannel {
    /// The channels of every radio in a split `GET_WIPHY` dump, by wiphy, in the order they came.
    ///
    /// A split dump spreads a radio's bands over several messages, each with its own `WIPHY_BANDS`.
    static func channels(
        fromWiphyMessages messages: [GenericNetlinkMessage]
    ) throws(NetlinkError) -> [WiphyIndex: [RadioChannel]] {
        typealias F = NL80211FrequencyAttribute
        var result: [WiphyIndex: [RadioChannel]] = [:]
        for message in messages {
            let wiphy = WiphyIndex(rawValue: try message.attributes.required(NL80211Attribute.wiphy, as: UInt32.self))
            for bands in message.attributes.every(NL80211Attribute.wiphyBands) {
                for band in try bands.nested().all {
                    for entry in try band.nested().nested(NL80211BandAttribute.freqs)?.all ?? [] {
                        let channel = try entry.nested()
                        guard let megahertz = try channel.integer(F.freq, as: UInt32.self) else { continue }
                        result[wiphy, default: []].append(
                            RadioChannel(
                                frequency: Frequency(megahertz: megahertz),
                                disabled: channel.has(F.disabled),
                                noIR: channel.has(F.noIr),
                                radar: channel.has(F.radar),
                                maxTransmitPowerMBm: try channel.integer(F.maxTxPower, as: UInt32.self)))
                    }
                }
            }
        }
        return result
    }
}
