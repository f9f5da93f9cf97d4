import NANEngine
import NANSystem
import NANWire
import Testing
import WiFiAware

@testable import waware

private func command<C: Command>(_ type: C.Type, _ words: [String]) throws -> C {
    guard case .run(let parsed, _) = try CommandLineParser.parse(words, root: Waware.self), let typed = parsed as? C
    else {
        throw ValidationError("'\(words.joined(separator: " "))' did not parse as \(C.self)")
    }
    return typed
}

@Test func subscribeOptionsBecomeTheEngineConfiguration() throws {
    let c = try command(
        SubscribeCommand.self,
        [
            "subscribe", "_chat._tcp", "--active", "--info-hex", "01:ff", "--match-filter", "red,*",
            "--srf-exclude", "02:00:00:00:00:01", "--count", "2", "--ttl-dw", "9",
        ])
    let config = c.parameters
    #expect(config.active)
    #expect(try c.service(c.values.services[0].service).serviceInfo == [0x01, 0xff])
    #expect(config.receiveFilter == (try MatchingFilter(elements: [Array("red".utf8), []])))
    #expect(config.responseFilter?.include == false)
    #expect(config.responseFilter?.shouldRespond(MACAddress(2, 0, 0, 0, 0, 1)) == false)
    #expect(config.discoveryWindowLimit == 9)
    #expect(config.peerTimeout?.discoveryWindowPeriodsForTest == 20)  // --lost-after's default
    #expect(c.count == 2)
}

@Test func lostAfterSetsThePeerTimeoutInDiscoveryWindowPeriodsAndZeroTurnsItOff() throws {
    let c = try command(SubscribeCommand.self, ["subscribe", "_chat._tcp", "--lost-after", "8"])
    #expect(c.parameters.peerTimeout == .microseconds(8 * 524_288))
    let off = try command(SubscribeCommand.self, ["subscribe", "_chat._tcp", "--lost-after", "0"])
    #expect(off.parameters.peerTimeout == nil)
}

@Test func aResponseFilterListLongerThanAFrameCarriesIsAUsageError() throws {
    let many = (16..<59).map { "02:00:00:00:00:" + String($0, radix: 16) }.joined(separator: ",")
    #expect(throws: ValidationError.self) {
        _ = try command(SubscribeCommand.self, ["subscribe", "_chat._tcp", "--srf-include", many])
    }
    _ = try command(SubscribeCommand.self, ["subscribe", "_chat._tcp", "--srf-include", many, "--srf-bloom"])
}

extension Duration {
    /// Whole DW periods (512 TU), as the engine will count them.
    fileprivate var discoveryWindowPeriodsForTest: Int {
        Int((Double(components.seconds) + Double(components.attoseconds) / 1e18) / 0.524288 + 0.5)
    }
}

@Test func severalServicesAreSeparatedByCommas() throws {
    let c = try command(PublishCommand.self, ["publish", "_a._tcp,_b._tcp", "--solicited"])
    #expect(c.values.services.map(\.name) == ["_a._tcp", "_b._tcp"])
    #expect(c.solicited && !c.unsolicited)
    #expect(c.parameters.solicited && !c.parameters.unsolicited)
    #expect(c.values.devices == .anyDevice)
}

@Test func pairedAndDeviceChooseTheDeviceSelectionAndExcludeEachOther() throws {
    #expect(try command(SubscribeCommand.self, ["subscribe", "_a._tcp", "--paired"]).values.devices == .allPaired)
    #expect(
        try command(PublishCommand.self, ["publish", "_a._tcp", "--device", "Kitchen,Hall"]).values.devices
            == .named(["Kitchen", "Hall"]))
    #expect(throws: ValidationError.self) {
        _ = try command(SubscribeCommand.self, ["subscribe", "_a._tcp", "--paired", "--device", "Kitchen"])
    }
}

@Test func aServiceNameBreakingApplesRulesIsAUsageError() {
    #expect(throws: ValidationError.self) {
        _ = try command(SubscribeCommand.self, ["subscribe", "_file_share._tcp"])
    }
}

@Test func matchingFilterTextTurnsStarsIntoWildcards() throws {
    let parsed = try MatchingFilter(text: "red,*,blue")
    #expect(parsed.elements.map(Array.init) == [Array("red".utf8), [], Array("blue".utf8)])
}

@Test func publishWithoutTypeFlagsIsSolicitedAndUnsolicited() throws {
    let c = try command(PublishCommand.self, ["publish", "_a._tcp"])
    #expect(c.solicited && c.unsolicited)
}

@Test func serviceInfoOver255BytesIsRefused() {
    #expect(throws: ValidationError.self) {
        _ = try command(PublishCommand.self, ["publish", "_a._tcp", "--info", String(repeating: "x", count: 256)])
    }
}

@Test func infoAndInfoHexExcludeEachOther() {
    #expect(throws: ValidationError.self) {
        _ = try command(SubscribeCommand.self, ["subscribe", "_a._tcp", "--info", "a", "--info-hex", "01"])
    }
}

@Test func hexBytesAcceptColonsAndRejectOddDigits() {
    #expect(DiscoveryArguments.hexBytes("01ab") == [0x01, 0xab])
    #expect(DiscoveryArguments.hexBytes("01:ab") == [0x01, 0xab])
    #expect(DiscoveryArguments.hexBytes("1ab") == nil)
    #expect(DiscoveryArguments.hexBytes("zz") == nil)
}

@Test func discoveryRecordShowsPrintableInfoAsTextAndAlwaysAsHex() {
    var record = DiscoveryRecord("message")
    record.setInfo(Array("pong".utf8))
    #expect(record.info == "pong")
    #expect(record.infoHex == "706f6e67")
    var binary = DiscoveryRecord("message")
    binary.setInfo([0x00, 0xff])
    #expect(binary.info == nil)
    #expect(binary.infoHex == "00ff")
    #expect(binary.text == "message info-hex 00ff")
}

@Test func threeDecimalFormattingRounds() {
    #expect(String(format3: 0.5246) == "0.525")
    #expect(String(format3: 12) == "12.000")
}

@Test func peerLineNamesThePeerOnceAndOtherLinesLabelIt() {
    var heard = DiscoveryRecord("peer")
    heard.peer = "42:00:00:00:00:00"
    heard.signal = -50
    #expect(heard.text == "peer 42:00:00:00:00:00 signal -50 dBm")
    var message = DiscoveryRecord("message")
    message.peer = "42:00:00:00:00:00"
    #expect(message.text == "message peer 42:00:00:00:00:00")
}

@Test func radioEventsLostArePrintedAsOneWarningLineThatSaysTheSessionGoesOn() {
    let records = SessionRecords(service: "_chat._tcp", instance: 1, start: .now)
    for dropped in [12, nil] as [Int?] {
        let line = records.eventsLostNotice(droppedEvents: dropped)
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("warning: _chat._tcp: radio events were lost (netlink overrun"))
        #expect(line.contains("still running"))
    }
    #expect(records.eventsLostNotice(droppedEvents: 12).contains("12 events dropped"))
}

@Test func idleTimeoutGoesWithADataPathAndIsSeconds() throws {
    let sub = try command(
        SubscribeCommand.self, ["subscribe", "_chat._tcp", "--data-path", "--open", "--idle-timeout", "2.5"])
    #expect(sub.idleTimeout == .milliseconds(2500))
    let pub = try command(
        PublishCommand.self, ["publish", "_chat._tcp", "--accept-data-paths", "--open", "--idle-timeout", "60"])
    #expect(pub.idleTimeout == .seconds(60))
    #expect(
        try command(SubscribeCommand.self, ["subscribe", "_chat._tcp", "--data-path", "--open"]).idleTimeout == nil)
    #expect(throws: (any Error).self) {
        try command(SubscribeCommand.self, ["subscribe", "_chat._tcp", "--idle-timeout", "5"])
    }
    #expect(throws: (any Error).self) {
        try command(SubscribeCommand.self, ["subscribe", "_chat._tcp", "--data-path", "--open", "--idle-timeout", "0"])
    }
}
