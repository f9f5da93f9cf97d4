import NANWire
import Synchronization
import Testing
import WiFiAware

@testable import waware

// `waware pair --ask-pin`, `--pin-on-request` and `--peer`: the interactive pairing roles, and the
// combinations that make no sense refused before anything touches the radio.

private func parsePair(_ words: [String]) throws -> PairCommand? {
    guard case .run(let parsed, _) = try CommandLineParser.parse(["pair"] + words, root: Waware.self) else {
        throw ValidationError("no run")
    }
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
    for words in [
        ["--ask-pin", "--pin", "123456"], ["--pin-on-request", "--opportunistic"], ["--pin-on-request", "--find"],
        ["--pin-on-request", "--peer", "02:11:22:33:44:55"], ["--ask-pin", "--opportunistic"],
    ] {
        #expect(throws: ValidationError.self, "\(words)") { _ = try parsePair(words) }
    }
}

@Test func peerNeedsAPINSourceAndAValidAddress() {
    #expect(throws: ValidationError.self) { _ = try parsePair(["--peer", "02:11:22:33:44:55"]) }
    #expect(throws: ValidationError.self) { _ = try parsePair(["--ask-pin", "--peer", "not-an-address"]) }
    #expect((try? parsePair(["--pin", "123456", "--peer", "02:11:22:33:44:55"]))??.peer != nil)
}

// The PIN off the command line (security review, issue 24): `--pin -` reads it from standard input,
// WAWARE_PIN gives it, and a PIN in argv (readable by every local user) still works but warns.

private func parsePair(_ words: [String], environment: [String: String]) throws -> (PairCommand, [String]) {
    let warnings = Mutex<[String]>([])
    let secrets = SecretInput(environment: environment) { line in warnings.withLock { $0.append(line) } }
    let values = try CommandLineParser.readArguments(words, of: PairCommand.self, path: ["waware", "pair"])
    return (try PairCommand(from: values, secrets: secrets), warnings.withLock { $0 })
}

@Test func aPINFromStandardInputOrTheEnvironmentInitiatesWithoutAWarning() throws {
    let (fromInput, inputWarnings) = try parsePair(["--pin", "-"], environment: [:])
    #expect(fromInput.pinFromStandardInput && fromInput.pin == nil && fromInput.find && inputWarnings.isEmpty)
    let (fromVariable, variableWarnings) = try parsePair([], environment: ["WAWARE_PIN": "123456"])
    #expect(fromVariable.pin == "123456" && fromVariable.find && variableWarnings.isEmpty)
    #expect(try parsePair(["--pin", "-", "--peer", "02:11:22:33:44:55"], environment: [:]).0.peer != nil)
    // WAWARE_PIN stands for --pin only when no other pairing mode is chosen.
    let (accepting, _) = try parsePair(["--pin-on-request"], environment: ["WAWARE_PIN": "123456"])
    #expect(accepting.pin == nil && !accepting.find)
    #expect(throws: ValidationError.self) { _ = try parsePair([], environment: ["WAWARE_PIN": "12 34"]) }
}

@Test func aPINInTheCommandLineStillWorksAndWarns() throws {
    let (command, warnings) = try parsePair(["--pin", "123456"], environment: [:])
    #expect(command.pin == "123456" && command.find)
    #expect(
        warnings == [
            "--pin on the command line can be read by every local user (/proc/PID/cmdline); use --pin - (standard input) or WAWARE_PIN instead"
        ])
}
