import Foundation
import Synchronization
import Testing
import WiFiAware

@testable import waware

// --passphrase, --pmk, --open and --cipher-suite of `waware publish --accept-data-paths` and
// `waware subscribe --data-path`: secure is what a passphrase or PMK gives, open must be asked for, and every
// bad value is one line.

private func subscribe(_ extra: [String]) throws -> SubscribeCommand {
    let words = ["subscribe", "_chat._tcp", "--data-path"] + extra
    guard case .run(let parsed, _) = try CommandLineParser.parse(words, root: Waware.self),
        let typed = parsed as? SubscribeCommand
    else {
        throw ValidationError("'\(words.joined(separator: " "))' did not parse")
    }
    return typed
}

private func message(_ extra: [String]) -> String? {
    do { _ = try subscribe(extra); return nil } catch let error as ValidationError { return error.message } catch {
        return "\(error)"
    }
}

@Test func aPassphraseOrAPMKGivesASecureDataPathWithBothSuitesByDefault() throws {
    #expect(try subscribe(["--passphrase", "NAN"]).dataPathSecurity == .passphrase("NAN"))
    #expect(try subscribe(["--passphrase", "NAN"]).dataPathSecurity?.cipherSuites == [.ncsSK128, .ncsSK256])
    let pmk = String(repeating: "0f", count: 32)
    #expect(try subscribe(["--pmk", pmk]).dataPathSecurity == .pmk([UInt8](repeating: 0x0f, count: 32)))
    #expect(
        try subscribe(["--passphrase", "NAN", "--cipher-suite", "256"]).dataPathSecurity?.cipherSuites == [.ncsSK256])
    #expect(
        try subscribe(["--pmk", pmk, "--cipher-suite", "NCS-SK-128"]).dataPathSecurity?.cipherSuites == [.ncsSK128])
    #expect(try subscribe(["--open"]).dataPathSecurity == .open)
    #expect(try subscribe([]).dataPathSecurity == .pairing)
    let publish = try CommandLineParser.parse(
        ["publish", "_chat._tcp", "--accept-data-paths", "--passphrase", "NAN"], root: Waware.self)
    guard case .run(let parsed, _) = publish, let command = parsed as? PublishCommand else {
        Issue.record("publish did not parse"); return
    }
    #expect(command.acceptSecurity == .passphrase("NAN"))
}

@Test func badSecurityOptionsAreOneLineUsageErrors() {
    #expect(message(["--cipher-suite", "128"]) == "--cipher-suite goes with --passphrase or --pmk")
    #expect(
        message(["--passphrase", String(repeating: "x", count: 64)]) == "--passphrase must be 1 to 63 bytes, not 64")
    #expect(message(["--passphrase", ""]) == "--passphrase must be 1 to 63 bytes, not 0")
    #expect(message(["--pmk", "abc"]) == "--pmk must be 64 hex digits (32 bytes)")
    #expect(message(["--pmk", String(repeating: "zz", count: 32)]) == "--pmk must be 64 hex digits (32 bytes)")
    #expect(
        message(["--open", "--passphrase", "NAN"])
            == "choose one of --open, --passphrase, --passphrase-file, --pmk and --pmk-file")
    #expect(
        message(["--open", "--cipher-suite", "128"]) == "--cipher-suite goes with --passphrase or --pmk, not --open")
    #expect(
        message(["--passphrase", "NAN", "--cipher-suite", "512"])?.hasPrefix("--cipher-suite must be 128 or 256")
            == true)
    #expect(throws: ValidationError.self) {
        _ = try CommandLineParser.parse(["subscribe", "_chat._tcp", "--passphrase", "NAN"], root: Waware.self)
    }
}

// Secrets off the command line (security review, issue 24): argv is readable by every local user in
// /proc/PID/cmdline, so a passphrase or PMK also comes from a file or the environment, and the old options warn.

/// What the parsing warned, and the security it chose, for `options` and `environment`.
private func secured(
    _ options: [String: String], environment: [String: String] = [:]
) throws -> (WADataPathSecurity?, [String]) {
    let warnings = Mutex<[String]>([])
    let secrets = SecretInput(environment: environment) { line in warnings.withLock { $0.append(line) } }
    var values = ParsedValues()
    values.options = options
    let security = try DataPathArguments.security(from: values, required: true, flag: "data-path", secrets: secrets)
    return (security, warnings.withLock { $0 })
}

private func secretFile(_ contents: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("waware-secret-\(UUID().uuidString)")
    try Data(contents.utf8).write(to: url)
    return url.path
}

@Test func aPassphraseOrPMKComesFromAFileOrTheEnvironmentWithoutAWarning() throws {
    let passphraseFile = try secretFile("correct horse\n")
    let pmkFile = try secretFile("  " + String(repeating: "0f", count: 32) + "\r\n")
    defer {
        try? FileManager.default.removeItem(atPath: passphraseFile);
        try? FileManager.default.removeItem(atPath: pmkFile)
    }
    let pmk = [UInt8](repeating: 0x0f, count: 32)
    #expect(try secured(["passphrase-file": passphraseFile]) == (.passphrase("correct horse"), []))
    #expect(try secured(["pmk-file": pmkFile]) == (.pmk(pmk), []))
    #expect(try secured([:], environment: ["WAWARE_PASSPHRASE": "correct horse"]) == (.passphrase("correct horse"), []))
    #expect(try secured([:], environment: ["WAWARE_PMK": String(repeating: "0F", count: 32) + "\n"]) == (.pmk(pmk), []))
    // An option wins over the environment; an empty variable is none; both variables at once are a usage error.
    #expect(
        try secured(["passphrase-file": passphraseFile], environment: ["WAWARE_PMK": "zz"]).0
            == .passphrase("correct horse"))
    #expect(try secured([:], environment: ["WAWARE_PASSPHRASE": ""]).0 == .pairing)
    #expect(throws: ValidationError("set WAWARE_PASSPHRASE or WAWARE_PMK, not both")) {
        _ = try secured(
            [:], environment: ["WAWARE_PASSPHRASE": "correct horse", "WAWARE_PMK": String(repeating: "0f", count: 32)])
    }
    #expect(throws: ValidationError.self) { _ = try secured(["passphrase-file": passphraseFile, "pmk-file": pmkFile]) }
}

@Test func aPassphraseOrPMKInTheCommandLineStillWorksAndWarnsOnce() throws {
    let (fromArgv, warnings) = try secured(["passphrase": "correct horse"])
    #expect(fromArgv == .passphrase("correct horse"))
    #expect(
        warnings == [
            "--passphrase on the command line can be read by every local user (/proc/PID/cmdline); use --passphrase-file or WAWARE_PASSPHRASE instead"
        ])
    let (pmk, pmkWarnings) = try secured(["pmk": String(repeating: "0f", count: 32)])
    #expect(pmk == .pmk([UInt8](repeating: 0x0f, count: 32)))
    #expect(pmkWarnings.count == 1 && pmkWarnings[0].hasPrefix("--pmk on the command line"))
}

@Test func aPassphraseShorterThan8BytesWarnsFromAnySource() throws {
    #expect(
        try secured([:], environment: ["WAWARE_PASSPHRASE": "NAN"]).1
            == ["the passphrase is 3 bytes; use 8 or more, since one captured handshake lets anyone guess it offline"])
    #expect(try secured([:], environment: ["WAWARE_PASSPHRASE": "12345678"]).1.isEmpty)
    #expect(try secured(["passphrase": "NAN"]).1.count == 2)
}

@Test func aSecretFileThatCannotBeReadIsOneUsageLine() throws {
    let missing = "/nonexistent/waware-passphrase"
    do {
        _ = try secured(["passphrase-file": missing])
        Issue.record("a missing file was read")
    } catch let error as ValidationError {
        #expect(error.message == "cannot read --passphrase-file \(missing): No such file or directory (ENOENT)")
        #expect(ErrorTranslation.failure(for: error).code == .usage)
    }
    #expect(throws: ValidationError.self) { _ = try secured(["pmk-file": "/"]) }  // a folder
    #expect(throws: ValidationError.self) { _ = try secured(["pmk-file": "/dev/zero"]) }  // a device
    let bad = try secretFile("not hex at all")
    defer { try? FileManager.default.removeItem(atPath: bad) }
    #expect(throws: ValidationError("the PMK in \(bad) must be 64 hex digits (32 bytes)")) {
        _ = try secured(["pmk-file": bad])
    }
}
