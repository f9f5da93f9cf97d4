import Testing

@testable import waware

// --fixed-address keeps the adapter's NAN address; without it every start takes a random one.

@Test func fixedAddressIsOffByDefaultAndParsedForPublishSubscribeAndPair() throws {
    func parse(_ words: [String]) throws -> any Command {
        guard case .run(let parsed, _) = try CommandLineParser.parse(words, root: Waware.self) else {
            throw ValidationError("no run")
        }
        return parsed
    }
    #expect((try parse(["subscribe", "_chat._tcp"]) as? SubscribeCommand)?.values.fixedAddress == false)
    #expect(
        (try parse(["subscribe", "_chat._tcp", "--fixed-address"]) as? SubscribeCommand)?.values.fixedAddress == true)
    #expect((try parse(["publish", "_chat._tcp", "--fixed-address"]) as? PublishCommand)?.values.fixedAddress == true)
    #expect((try parse(["pair", "--fixed-address"]) as? PairCommand)?.fixedAddress == true)
    #expect((try parse(["pair"]) as? PairCommand)?.fixedAddress == false)
}
