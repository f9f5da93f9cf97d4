import Foundation
import Testing

@testable import waware

/// Runs `program` with `arguments` and returns its exit status and standard output.
private func shell(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Writes `text` to a fresh temporary file and returns its path.
private func temporaryFile(_ text: String, suffix: String) throws -> String {
    let path = NSTemporaryDirectory() + "waware-completion-\(UUID().uuidString)\(suffix)"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// What the generated bash function offers for the words typed so far (the last one is being completed).
private func bashCompletions(_ words: [String]) throws -> [String] {
    let script = try temporaryFile(CompletionScript.script(for: .bash, root: Waware.self), suffix: ".bash")
    defer { try? FileManager.default.removeItem(atPath: script) }
    let quoted = words.map(CompletionScript.shellQuoted).joined(separator: " ")
    let program =
        "source \(script); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _waware; printf '%s\\n' \"${COMPREPLY[@]}\""
    let result = try shell("/bin/bash", ["-c", program])
    #expect(result.status == 0, "\(result.output)")
    return result.output.split(separator: "\n").map(String.init)
}

@Test func theBashScriptIsValidBash() throws {
    let script = try temporaryFile(CompletionScript.script(for: .bash, root: Waware.self), suffix: ".bash")
    defer { try? FileManager.default.removeItem(atPath: script) }
    let result = try shell("/bin/bash", ["-n", script])
    #expect(result.status == 0, "\(result.output)")
}

@Test func theZshScriptIsValidZsh() throws {
    let script = try temporaryFile(CompletionScript.script(for: .zsh, root: Waware.self), suffix: ".zsh")
    defer { try? FileManager.default.removeItem(atPath: script) }
    let result = try shell("/usr/bin/zsh", ["-n", script])
    #expect(result.status == 0, "\(result.output)")
}

@Test func theFishScriptIsValidFish() throws {
    let script = try temporaryFile(CompletionScript.script(for: .fish, root: Waware.self), suffix: ".fish")
    defer { try? FileManager.default.removeItem(atPath: script) }
    let result = try shell("/usr/bin/fish", ["--no-execute", script])
    #expect(result.status == 0, "\(result.output)")
}

@Test func bashCompletesTopLevelCommands() throws {
    #expect(try bashCompletions(["waware", "clu"]) == ["cluster"])
    #expect(try bashCompletions(["waware", "sub"]) == ["subscribe"])
}

@Test func bashCompletesSubcommandsOfAGroup() throws {
    #expect(Set(try bashCompletions(["waware", "cluster", "st"])) == ["start", "stop"])
}

@Test func bashCompletesTheOptionsOfTheCommandReached() throws {
    #expect(try bashCompletions(["waware", "subscribe", "--acti"]) == ["--active"])
    // An option of another command is not offered.
    #expect(try bashCompletions(["waware", "list", "--acti"]).isEmpty)
}

@Test(arguments: CompletionScript.Shell.allCases)
func everyCommandAndOptionIsInTheScript(shell: CompletionScript.Shell) {
    let script = CompletionScript.script(for: shell, root: Waware.self)
    for entry in CommandTree.entries(from: Waware.self) {
        if let word = entry.subcommandWords.last { #expect(script.contains(word), "\(shell): \(entry.pathText)") }
        for spec in entry.command.arguments where spec.isNamed {
            #expect(script.contains(spec.name), "\(shell): \(entry.pathText) --\(spec.name)")
        }
    }
}

@Test func quotingSurvivesASingleQuote() {
    #expect(CompletionScript.shellQuoted("it's") == "'it'\\''s'")
}

@Test func completionsRefusesAnUnknownShellWithUsageStatus() throws {
    let result = try BinaryRunner.run(["completions", "tcsh"])
    #expect(result.status == ExitCode.usage.rawValue)
    #expect(result.stderrLines.count == 1)
    #expect(result.stderr.contains("bash, zsh, fish"))
}
