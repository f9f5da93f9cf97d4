import Foundation
import Testing

@testable import waware

/// Every command path in the tree after `waware`, e.g. `["cluster", "start"]` (the root is `[]`).
private func allCommandPaths() -> [[String]] {
    CommandTree.entries(from: Waware.self).map(\.subcommandWords)
}

/// Whether this machine's kernel offers nl80211 (the CI host does not; the VM does).
private let hostHasNL80211 = FileManager.default.fileExists(atPath: "/sys/class/ieee80211")

@Test(arguments: allCommandPaths())
func everyCommandHasHelpWithUsageAndExamples(path: [String]) throws {
    for flag in ["--help", "-h"] {
        let result = try BinaryRunner.run(path + [flag])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("USAGE: " + (["waware"] + path).joined(separator: " ")))
        #expect(result.stdout.contains("EXAMPLES:\n  waware"))
    }
}

@Test func versionPrintsTheVersion() throws {
    let result = try BinaryRunner.run(["--version"])
    #expect(result.status == 0)
    #expect(result.stdout == Waware.version + "\n")
}

@Test func unknownOptionExits64WithOneLineAndAHint() throws {
    let result = try BinaryRunner.run(["list", "--frobnicate"])
    #expect(result.status == ExitCode.usage.rawValue)
    #expect(result.stdout.isEmpty)
    #expect(result.stderrLines == ["waware: unknown option '--frobnicate' (see 'waware list --help')"])
}

@Test func unknownCommandExits64WithOneLineAndAHint() throws {
    let result = try BinaryRunner.run(["lsit"])
    #expect(result.status == ExitCode.usage.rawValue)
    #expect(result.stderrLines == ["waware: unknown command 'lsit'; did you mean 'list'? (see 'waware --help')"])
}

@Test func anUnreadableSecretFileExits64WithOneLine() throws {
    let result = try BinaryRunner.run([
        "subscribe", "_chat._tcp", "--data-path", "--passphrase-file", "/nonexistent/passphrase",
    ])
    #expect(result.status == ExitCode.usage.rawValue)
    #expect(
        result.stderrLines == [
            "waware: cannot read --passphrase-file /nonexistent/passphrase: No such file or directory (ENOENT)"
        ])
}

@Test func invalidValueExits64NamingTheOption() throws {
    let result = try BinaryRunner.run(["cluster", "start", "--master-pref", "300"])
    #expect(result.status == ExitCode.usage.rawValue)
    #expect(result.stderrLines == ["waware: invalid value '300' for --master-pref: expected a number from 1 to 255"])
}

@Test(.enabled(if: !hostHasNL80211, "needs a kernel without cfg80211"))
func listWithoutNL80211ExitsWithItsOwnCodeAndOneLine() throws {
    let result = try BinaryRunner.run(["list"])
    #expect(result.status == ExitCode.nl80211Unavailable.rawValue)
    #expect(result.stdout.isEmpty)
    #expect(result.stderrLines.count == 1)
    #expect(result.stderrLines.first?.hasPrefix("waware: this kernel has no nl80211") == true)
}

@Test(.enabled(if: !hostHasNL80211, "needs a kernel without cfg80211"))
func unknownAdapterWithoutNL80211ReportsTheMissingKernelSupportFirst() throws {
    // Without nl80211 no adapter can be looked up, so the root cause wins over "no such adapter".
    let result = try BinaryRunner.run(["info", "phy9"])
    #expect(result.status == ExitCode.nl80211Unavailable.rawValue)
    #expect(result.stderrLines.count == 1)
}

@Test(.enabled(if: !hostHasNL80211, "needs a kernel without cfg80211"))
func probeWithoutNL80211IsARealErrorNotAnAbsentNAN() throws {
    let result = try BinaryRunner.run(["probe", "phy0"])
    #expect(result.status == ExitCode.nl80211Unavailable.rawValue)
    #expect(result.stdout.isEmpty)
}

@Test(.enabled(if: !FileManager.default.fileExists(atPath: "/sys/module/mac80211_hwsim"), "needs no mac80211_hwsim"))
func simListWithoutHwsimExitsWithItsOwnCode() throws {
    let result = try BinaryRunner.run(["sim", "list"])
    #expect(result.status == ExitCode.hwsimNotLoaded.rawValue)
    #expect(result.stderrLines.count == 1)
    #expect(result.stderrLines.first?.contains("modprobe mac80211_hwsim") == true)
}

@Test(.enabled(if: !hostHasNL80211, "needs a kernel without cfg80211"))
func diagnoseWithoutNL80211Exits69WithOneLine() throws {
    let result = try BinaryRunner.run(["diagnose", "--json"])
    #expect(result.status == ExitCode.nl80211Unavailable.rawValue)
    #expect(result.stdout.isEmpty)
    #expect(
        result.stderrLines == [
            "waware: this kernel has no nl80211 (cfg80211 is not loaded or not built), so there is no Wi-Fi to use"
        ])
}

@Test func diagnoseRejectsABadTimeout() throws {
    let result = try BinaryRunner.run(["diagnose", "--self-test", "--timeout", "0"])
    #expect(result.status == ExitCode.usage.rawValue)
    #expect(
        result.stderrLines == [
            "waware: invalid value '0' for --timeout: expected a whole number of seconds from 1 to 600"
        ])
}
