import NANWire
import Testing
import WiFiAware

@testable import waware

// `waware pair --ask-pin`, `--pin-on-request` and `--peer`: the interactive pairing roles, and the
// combinations that make no sense refused before anything touches the radio.

private func parsePair(_ words: [String]) throws -> PairCommand? {
    guard case .run(let parsed, _) = try CommandLineParser.parse(["pair"] + words, root: Waware.self) else { throw ValidationError("no run") }
    return parsed as? PairCommand
}

@Test func askPINInitiatesAndTakesAPeerAddress() throws {
    let command = try #require(try parsePair(["--ask-pin", "--peer", "02:11:22:33:44:55"]))
    #expect(command.askPIN)
    #expect(command.find)
    #expect(command.peer == MACAddress("02:11:22:33:44:55"))
}

@Test func pinOnRequestAccepts() throws {
    let command = try #require(try parsePair(["--pin-on-request"]))
    #expect(command.pinOnRequest)
    #expect(!command.find)
}

@Test func pairingModesExcludeEachOther() {
    for words in [["--ask-pin", "--pin", "123456"], ["--pin-on-request", "--opportunistic"], ["--pin-on-request", "--find"],
                  ["--pin-on-request", "--peer", "02:11:22:33:44:55"], ["--ask-pin", "--opportunistic"]] {
        #expect(throws: ValidationError.self, "\(words)") { _ = try parsePair(words) }
    }
}

@Test func peerNeedsAPINSourceAndAValidAddress() {
    #expect(throws: ValidationError.self) { _ = try parsePair(["--peer", "02:11:22:33:44:55"]) }
    #expect(throws: ValidationError.self) { _ = try parsePair(["--ask-pin", "--peer", "not-an-address"]) }
    #expect((try? parsePair(["--pin", "123456", "--peer", "02:11:22:33:44:55"]))??.peer != nil)
}
