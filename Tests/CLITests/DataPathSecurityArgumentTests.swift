import Testing
import WiFiAware

@testable import waware

// --passphrase, --pmk, --open and --cipher-suite of `waware publish --accept-data-paths` and
// `waware subscribe --data-path`: secure is what a passphrase or PMK gives, open must be asked for, and every
// bad value is one line.

private func subscribe(_ extra: [String]) throws -> SubscribeCommand {
    let words = ["subscribe", "_chat._tcp", "--data-path"] + extra
    guard case .run(let parsed, _) = try CommandLineParser.parse(words, root: Waware.self), let typed = parsed as? SubscribeCommand else {
        throw ValidationError("'\(words.joined(separator: " "))' did not parse")
    }
    return typed
}

private func message(_ extra: [String]) -> String? {
    do { _ = try subscribe(extra); return nil } catch let error as ValidationError { return error.message } catch { return "\(error)" }
}

@Test func aPassphraseOrAPMKGivesASecureDataPathWithBothSuitesByDefault() throws {
    #expect(try subscribe(["--passphrase", "NAN"]).dataPathSecurity == .passphrase("NAN"))
    #expect(try subscribe(["--passphrase", "NAN"]).dataPathSecurity?.cipherSuites == [.ncsSK128, .ncsSK256])
    let pmk = String(repeating: "0f", count: 32)
    #expect(try subscribe(["--pmk", pmk]).dataPathSecurity == .pmk([UInt8](repeating: 0x0f, count: 32)))
    #expect(try subscribe(["--passphrase", "NAN", "--cipher-suite", "256"]).dataPathSecurity?.cipherSuites == [.ncsSK256])
    #expect(try subscribe(["--pmk", pmk, "--cipher-suite", "NCS-SK-128"]).dataPathSecurity?.cipherSuites == [.ncsSK128])
    #expect(try subscribe(["--open"]).dataPathSecurity == .open)
    #expect(try subscribe([]).dataPathSecurity == .pairing)
    let publish = try CommandLineParser.parse(["publish", "_chat._tcp", "--accept-data-paths", "--passphrase", "NAN"], root: Waware.self)
    guard case .run(let parsed, _) = publish, let command = parsed as? PublishCommand else { Issue.record("publish did not parse"); return }
    #expect(command.acceptSecurity == .passphrase("NAN"))
}

@Test func badSecurityOptionsAreOneLineUsageErrors() {
    #expect(message(["--cipher-suite", "128"]) == "--cipher-suite goes with --passphrase or --pmk")
    #expect(message(["--passphrase", String(repeating: "x", count: 64)]) == "--passphrase must be 1 to 63 bytes, not 64")
    #expect(message(["--passphrase", ""]) == "--passphrase must be 1 to 63 bytes, not 0")
    #expect(message(["--pmk", "abc"]) == "--pmk must be 64 hex digits (32 bytes)")
    #expect(message(["--pmk", String(repeating: "zz", count: 32)]) == "--pmk must be 64 hex digits (32 bytes)")
    #expect(message(["--open", "--passphrase", "NAN"]) == "choose one of --open, --passphrase and --pmk")
    #expect(message(["--open", "--cipher-suite", "128"]) == "--cipher-suite goes with --passphrase or --pmk, not --open")
    #expect(message(["--passphrase", "NAN", "--cipher-suite", "512"])?.hasPrefix("--cipher-suite must be 128 or 256") == true)
    #expect(throws: ValidationError.self) {
        _ = try CommandLineParser.parse(["subscribe", "_chat._tcp", "--passphrase", "NAN"], root: Waware.self)
    }
}
