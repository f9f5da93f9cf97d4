import Testing

@_spi(Tools) import WiFiAware
@testable import waware

/// Parses `words` against the real command tree.
private func parse(_ words: [String]) throws -> Invocation {
    try CommandLineParser.parse(words, root: Waware.self)
}

/// The command a successful parse produced, cast to `T`.
private func command<T: Command>(_ words: [String], as type: T.Type) throws -> T? {
    guard case .run(let command, _) = try parse(words) else { return nil }
    return command as? T
}

/// The usage error parsing `words` throws, if any.
private func usageError(_ words: [String]) -> UsageError? {
    do {
        _ = try parse(words)
        return nil
    } catch {
        return error as? UsageError
    }
}

/// The validation error parsing `words` throws, if any.
private func validationError(_ words: [String]) -> ValidationError? {
    do {
        _ = try parse(words)
        return nil
    } catch {
        return error as? ValidationError
    }
}

@Test func nestedSubcommandReceivesItsOptionsInAnyForm() throws {
    let start = try #require(
        try command(
            ["cluster", "start", "-a", "phy1", "--master-pref=100", "--bands", "2.4,5", "--notify-dw", "--json"],
            as: ClusterStartCommand.self))
    #expect(start.adapter == "phy1")
    #expect(start.masterPreference == 100)
    #expect(start.bands == [.ghz2_4, .ghz5])
    #expect(start.notifyDW)
    #expect(!start.verbose)
    #expect(start.json)
}

@Test func clusterStartDefaultsNeedNoOptions() throws {
    let start = try #require(try command(["cluster", "start"], as: ClusterStartCommand.self))
    #expect(start.adapter == nil)
    #expect(start.masterPreference == ClusterStartCommand.defaultMasterPreference)
    #expect(start.bands == nil)
    #expect(start.clusterID == nil)
    #expect(!start.notifyDW)
}

@Test func verboseImpliesDiscoveryWindowNotifications() throws {
    let start = try #require(try command(["cluster", "start", "-v"], as: ClusterStartCommand.self))
    #expect(start.verbose)
    #expect(start.notifyDW)
}

@Test func clusterIDAcceptsFullAddressOrLastTwoBytes() throws {
    let full = try #require(
        try command(["cluster", "start", "--cluster-id", "50:6F:9A:01:12:34"], as: ClusterStartCommand.self))
    let short = try #require(try command(["cluster", "start", "--cluster-id", "12-34"], as: ClusterStartCommand.self))
    #expect(full.clusterID == [0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34])
    #expect(short.clusterID == full.clusterID)
}

@Test func clusterIDOutsideTheNANRangeIsRejectedNamingTheOption() throws {
    let error = try #require(validationError(["cluster", "start", "--cluster-id", "02:00:00:00:12:34"]))
    #expect(error.message.contains("--cluster-id"))
}

@Test func masterPreferenceZeroIsRejected() throws {
    let error = try #require(validationError(["cluster", "start", "--master-pref", "0"]))
    #expect(error.message == "invalid value '0' for --master-pref: expected a number from 1 to 255")
}

@Test func bandsWithout2_4GHzFailValidation() throws {
    let error = try #require(validationError(["cluster", "start", "--bands", "5"]))
    #expect(error.message.contains("2.4"))
}

@Test func unknownOptionSuggestsTheNearestOne() throws {
    let error = try #require(usageError(["list", "--jsn"]))
    #expect(error.message == "unknown option '--jsn'; did you mean '--json'?")
    #expect(error.helpPath == "waware list")
    #expect(error.description == "unknown option '--jsn'; did you mean '--json'? (see 'waware list --help')")
}

@Test func unknownCommandSuggestsTheNearestOne() throws {
    let error = try #require(usageError(["clustr", "start"]))
    #expect(error.message == "unknown command 'clustr'; did you mean 'cluster'?")
    #expect(error.helpPath == "waware")
}

@Test func unrelatedWordGetsNoSuggestion() throws {
    let error = try #require(usageError(["sim", "frobnicate"]))
    #expect(error.message == "unknown command 'frobnicate'")
    #expect(error.helpPath == "waware sim")
}

@Test func optionWithoutValueIsAUsageError() throws {
    let error = try #require(usageError(["cluster", "start", "--adapter"]))
    #expect(error.message == "missing value <adapter> for '--adapter'")
}

@Test func flagGivenAValueIsAUsageError() throws {
    let error = try #require(usageError(["list", "--json=yes"]))
    #expect(error.message == "flag '--json' takes no value")
}

@Test func missingRequiredPositionalIsAUsageError() throws {
    let error = try #require(usageError(["probe"]))
    #expect(error.message == "missing argument <device>")
}

@Test func extraPositionalIsAUsageError() throws {
    let error = try #require(usageError(["info", "phy0", "phy1"]))
    #expect(error.message == "unexpected argument 'phy1'")
}

@Test func doubleDashLetsAPositionalStartWithADash() throws {
    let remove = try #require(try command(["sim", "remove", "--", "-odd-name"], as: SimRemoveCommand.self))
    #expect(remove.radio == "-odd-name")
}

@Test func helpAnywhereShowsTheHelpOfTheCommandReached() throws {
    guard case .help(let shown, let path) = try parse(["cluster", "start", "--bogus", "--help"]) else {
        Issue.record("expected help")
        return
    }
    #expect(ObjectIdentifier(shown) == ObjectIdentifier(ClusterStartCommand.self))
    #expect(path == "waware cluster start")
}

@Test func groupWithoutSubcommandShowsItsHelp() throws {
    guard case .help(let shown, let path) = try parse(["sim"]) else {
        Issue.record("expected help")
        return
    }
    #expect(ObjectIdentifier(shown) == ObjectIdentifier(SimCommand.self))
    #expect(path == "waware sim")
}

@Test func versionIsOnlyAnOptionOfTheRoot() throws {
    guard case .version(let version) = try parse(["--version"]) else {
        Issue.record("expected version")
        return
    }
    #expect(version == Waware.version)
    #expect(usageError(["list", "--version"])?.message.hasPrefix("unknown option '--version'") == true)
}

@Test func simAddRejectsKeepWithTemporary() throws {
    #expect(validationError(["sim", "add", "--keep", "--temporary"]) != nil)
}

@Test func simAddNumbersNamesOnlyForSeveralRadios() throws {
    let one = try #require(try command(["sim", "add", "--name", "nanA"], as: SimAddCommand.self))
    let three = try #require(try command(["sim", "add", "--name", "nan", "-n", "3"], as: SimAddCommand.self))
    let unnamed = try #require(try command(["sim", "add", "--count", "2"], as: SimAddCommand.self))
    #expect(one.radioNames == ["nanA"])
    #expect(three.radioNames == ["nan0", "nan1", "nan2"])
    #expect(unnamed.radioNames == [nil, nil])
    #expect(!unnamed.temporary)
    #expect(unnamed.channels == SimAddCommand.defaultChannels)
}

@Test func simAddRejectsCountOutOfRangeAndOddNames() throws {
    #expect(validationError(["sim", "add", "--count", "0"])?.message.contains("--count") == true)
    #expect(validationError(["sim", "add", "--name", "a b"])?.message.contains("--name") == true)
}

@Test func editDistanceCountsSingleCharacterEdits() {
    #expect(CommandLineParser.editDistance("list", "lst") == 1)
    #expect(CommandLineParser.editDistance("lsit", "list") == 1)
    #expect(CommandLineParser.editDistance("kitten", "sitting") == 3)
    #expect(CommandLineParser.editDistance("", "abc") == 3)
    #expect(CommandLineParser.closest(to: "evnts", among: ["events", "probe"]) == "events")
    #expect(CommandLineParser.closest(to: "zzz", among: ["events", "probe"]) == nil)
}
