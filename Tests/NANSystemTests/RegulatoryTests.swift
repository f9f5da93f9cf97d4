@testable import NANSystem
import Testing

/// A `GET_REG` reply as the kernel sends it: family 0x25, command GET_REG, alpha2, DFS region, rules.
private func regulatoryMessage(
    alpha2: String, dfsRegion: UInt8? = nil, wiphy: UInt32? = nil, selfManaged: Bool = false,
    rules: [(start: UInt32, end: UInt32, bandwidth: UInt32, eirp: UInt32, flags: UInt32)]
) throws -> GenericNetlinkMessage {
    typealias R = NL80211RegulatoryRuleAttribute
    var writer = NetlinkAttributeWriter()
    try writer.put(NL80211Attribute.regAlpha2, string: alpha2)
    if let dfsRegion { try writer.put(NL80211Attribute.dfsRegion, dfsRegion) }
    if let wiphy { try writer.put(NL80211Attribute.wiphy, wiphy) }
    if selfManaged { try writer.putFlag(NL80211Attribute.wiphySelfManagedReg) }
    try writer.nest(NL80211Attribute.regRules) { (array) throws(NetlinkError) in
        for (index, rule) in rules.enumerated() {
            try array.nest(type: UInt16(index)) { (r) throws(NetlinkError) in
                try r.put(R.regRuleFlags, rule.flags)
                try r.put(R.freqRangeStart, rule.start)
                try r.put(R.freqRangeEnd, rule.end)
                try r.put(R.freqRangeMaxBw, rule.bandwidth)
                try r.put(R.powerRuleMaxAntGain, UInt32(0))
                try r.put(R.powerRuleMaxEirp, rule.eirp)
            }
        }
    }
    let raw = NetlinkMessage(
        type: 0x25, flags: 2, sequence: 1, portID: 1,
        payload: [NL80211Command.getReg.rawValue, 1, 0, 0] + writer.bytes)
    return try GenericNetlinkMessage(bytes: raw.encoded)
}

/// The world domain as wireless-regdb defines it (the rules NAN cares about).
private let worldRules: [(start: UInt32, end: UInt32, bandwidth: UInt32, eirp: UInt32, flags: UInt32)] = [
    (2_402_000, 2_472_000, 40_000, 2000, 0),
    (2_457_000, 2_482_000, 20_000, 2000, 0x80 | 0x800),
    (5_170_000, 5_250_000, 80_000, 2000, 0x80 | 0x800),
    (5_735_000, 5_835_000, 80_000, 2000, 0x80),
]

@Suite struct RegulatoryTests {
    @Test func getRegulatoryDumpIsABareDump() throws {
        let request = try NL80211Request.getRegulatoryDump()
        #expect(request.command == .getReg)
        #expect(request.dump)
        #expect(request.attributes.isEmpty)
        #expect(request.callName == "NL80211_CMD_GET_REG")
    }

    @Test func worldDomainDecodesWithItsRulesAndFlags() throws {
        let domains = try RegulatoryDomain.domains(from: [try regulatoryMessage(alpha2: "00", rules: worldRules)])
        let world = try #require(domains.first)
        #expect(world.countryCode == "00")
        #expect(world.isWorld)
        #expect(world.wiphy == nil)
        #expect(!world.selfManaged)
        #expect(world.rules.count == 4)
        #expect(
            world.rules[0]
                == RegulatoryRule(
                    startKHz: 2_402_000, endKHz: 2_472_000, maxBandwidthKHz: 40_000,
                    maxEIRPmBm: 2000, flags: []))
        #expect(world.rules[2].flags == [.noIR, .autoBandwidth])
        #expect(world.rules[2].flags.names == ["NO-IR", "AUTO-BW"])
        #expect(world.rule(covering: .nan2GHz) == world.rules[0])
        #expect(world.rule(covering: .nan5GHzLow)?.flags.contains(.noIR) == true)
        #expect(world.rule(covering: .nan5GHzHigh)?.flags.contains(.noIR) == true)
        #expect(world.rule(covering: Frequency(megahertz: 5500)) == nil)
    }

    @Test func dumpKeepsTheGlobalDomainAndASelfManagedRadiosOwn() throws {
        let domains = try RegulatoryDomain.domains(from: [
            try regulatoryMessage(alpha2: "US", dfsRegion: 1, rules: [(2_402_000, 2_472_000, 40_000, 3000, 0)]),
            try regulatoryMessage(
                alpha2: "DE", dfsRegion: 2, wiphy: 3, selfManaged: true,
                rules: [(5_170_000, 5_250_000, 80_000, 2300, 0)]),
        ])
        #expect(domains.map(\.countryCode) == ["US", "DE"])
        #expect(domains[0].dfsRegion == 1)
        #expect(domains[1].wiphy == WiphyIndex(rawValue: 3))
        #expect(domains[1].selfManaged)
        #expect(domains[1].rule(covering: .nan5GHzLow)?.maxEIRPmBm == 2300)
    }

    @Test func replyWithoutCountryOrWithACutRuleIsATypedError() throws {
        var writer = NetlinkAttributeWriter()
        try writer.put(NL80211Attribute.dfsRegion, UInt8(0))
        let noCountry = try GenericNetlinkMessage(
            NetlinkMessage(type: 0x25, flags: 0, sequence: 1, portID: 1, payload: [31, 1, 0, 0] + writer.bytes))
        #expect(throws: NetlinkError.self) { try RegulatoryDomain.domains(from: [noCountry]) }

        var cut = NetlinkAttributeWriter()
        try cut.put(NL80211Attribute.regAlpha2, string: "00")
        // A rule whose start frequency is two bytes instead of four.
        try cut.nest(NL80211Attribute.regRules) { (array) throws(NetlinkError) in
            try array.nest(type: 0) { (r) throws(NetlinkError) in
                try r.put(NL80211RegulatoryRuleAttribute.freqRangeStart, UInt16(1))
            }
        }
        let short = try GenericNetlinkMessage(
            NetlinkMessage(type: 0x25, flags: 0, sequence: 1, portID: 1, payload: [31, 1, 0, 0] + cut.bytes))
        #expect(throws: NetlinkError.self) { try RegulatoryDomain.domains(from: [short]) }
    }

    @Test func channelsComeFromEverySplitMessageOfTheWiphyDump() throws {
        typealias F = NL80211FrequencyAttribute
        func message(wiphy: UInt32, band: UInt16, channels: [(UInt32, [F])]) throws -> GenericNetlinkMessage {
            var writer = NetlinkAttributeWriter()
            try writer.put(NL80211Attribute.wiphy, wiphy)
            try writer.nest(NL80211Attribute.wiphyBands) { (bands) throws(NetlinkError) in
                try bands.nest(type: band) { (b) throws(NetlinkError) in
                    try b.nest(NL80211BandAttribute.freqs) { (list) throws(NetlinkError) in
                        for (index, channel) in channels.enumerated() {
                            try list.nest(type: UInt16(index)) { (c) throws(NetlinkError) in
                                try c.put(F.freq, channel.0)
                                for flag in channel.1 { try c.putFlag(flag) }
                                try c.put(F.maxTxPower, UInt32(2000))
                            }
                        }
                    }
                }
            }
            return try GenericNetlinkMessage(
                NetlinkMessage(type: 0x25, flags: 2, sequence: 1, portID: 1, payload: [3, 1, 0, 0] + writer.bytes))
        }
        var header = NetlinkAttributeWriter()
        try header.put(NL80211Attribute.wiphy, UInt32(0))
        try header.put(NL80211Attribute.wiphyName, string: "phy0")
        let messages = [
            try GenericNetlinkMessage(
                NetlinkMessage(type: 0x25, flags: 2, sequence: 1, portID: 1, payload: [3, 1, 0, 0] + header.bytes)),
            try message(wiphy: 0, band: 0, channels: [(2412, []), (2437, []), (2484, [.disabled])]),
            try message(wiphy: 0, band: 1, channels: [(5220, [.noIr]), (5745, [.noIr, .radar])]),
            try message(wiphy: 1, band: 0, channels: [(2437, [.noIr])]),
        ]
        let channels = try RadioChannel.channels(fromWiphyMessages: messages)
        let phy0 = try #require(channels[WiphyIndex(rawValue: 0)])
        #expect(phy0.map(\.frequency.rawValue) == [2412, 2437, 2484, 5220, 5745])
        #expect(phy0[2].disabled && !phy0[2].noIR)
        #expect(phy0[3].noIR && !phy0[3].radar)
        #expect(phy0[4].noIR && phy0[4].radar)
        #expect(phy0[1].maxTransmitPowerMBm == 2000)
        #expect(channels[WiphyIndex(rawValue: 1)]?.first?.noIR == true)
    }

    @Test func ethtoolDriverInfoReadsItsFixedStrings() {
        var bytes = [UInt8](repeating: 0, count: EthtoolDriverInfo.size)
        func put(_ text: String, field: Int) {
            for (index, byte) in text.utf8.enumerated() { bytes[4 + 32 * field + index] = byte }
        }
        put("iwlwifi", field: 0)
        put("7.2.13+deb14-amd64", field: 1)
        put("89.1bd6d5a2.0 bz-b0-fm-c0-89.uc", field: 2)
        put("0000:00:14.3", field: 3)
        let info = EthtoolDriverInfo.decode(bytes)
        #expect(
            info
                == EthtoolDriverInfo(
                    driver: "iwlwifi", version: "7.2.13+deb14-amd64",
                    firmwareVersion: "89.1bd6d5a2.0 bz-b0-fm-c0-89.uc", busInfo: "0000:00:14.3"))
        #expect(EthtoolDriverInfo.size == 196)
        #expect(EthtoolDriverInfo.decode([1, 2]).driver == "")
    }

    @Test func kernelReleaseIsReadAndSplit() throws {
        let kernel = try #require(KernelRelease.current())
        #expect(!kernel.release.isEmpty)
        #expect(!kernel.machine.isEmpty)
    }
}
