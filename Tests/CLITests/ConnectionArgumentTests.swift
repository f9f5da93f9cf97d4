import Testing
import WiFiAware

@testable import waware

// `waware listen` and `waware connect`: mutual TLS by default, plain TCP only with --plain, trust on first
// use only with --tofu, the identity file with --identity; a contradiction is one usage line.

private func connect(_ extra: [String]) throws -> ConnectCommand {
    let words = ["connect", "_chat._tcp"] + extra
    guard case .run(let parsed, _) = try CommandLineParser.parse(words, root: Waware.self),
        let typed = parsed as? ConnectCommand
    else {
        throw ValidationError("'\(words.joined(separator: " "))' did not parse")
    }
    return typed
}

@Test func listenAndConnectUseMutualTLSWithPairedDevicesByDefault() throws {
    let parameters = try connect([]).values.parameters
    #expect(!parameters.transport.isPlain)
    #expect(!parameters.trust.trustsOnFirstUse)
    #expect(parameters.identityFile == nil)
    #expect(parameters.dataPathSecurity == .pairing)
    guard case .run(let parsed, _) = try CommandLineParser.parse(["listen", "_chat._tcp"], root: Waware.self),
        let listen = parsed as? ListenCommand
    else { Issue.record("listen did not parse"); return }
    #expect(!listen.values.parameters.transport.isPlain)
}

@Test func plainTOFUAndTheIdentityFileAreAskedForByName() throws {
    #expect(try connect(["--open", "--plain"]).values.parameters.transport.isPlain)
    #expect(try connect(["--tofu"]).values.parameters.trust.trustsOnFirstUse)
    #expect(try connect(["--identity", "/tmp/id.pem"]).values.parameters.identityFile == "/tmp/id.pem")
    do {
        _ = try connect(["--plain", "--tofu"])
        Issue.record("--plain --tofu was accepted")
    } catch let error as ValidationError {
        #expect(error.message == "--tofu and --identity go with TLS, not --plain")
    }
}

@Test func listenConnectsToWhatItFindsOnlyWhenAskedAndSendsOnlyMessages() throws {
    func listen(_ extra: [String]) throws -> ListenCommand {
        guard
            case .run(let parsed, _) = try CommandLineParser.parse(["listen", "_chat._tcp"] + extra, root: Waware.self),
            let typed = parsed as? ListenCommand
        else { throw ValidationError("listen did not parse") }
        return typed
    }
    let plain = try listen([])
    #expect(!plain.connectToFound && plain.send == nil)
    let both = try listen(["--connect-to-found", "--send", "hello"])
    #expect(both.connectToFound && both.send == "hello")
    do {
        _ = try listen(["--byte-stream", "--send", "hello"])
        Issue.record("--send with --byte-stream was accepted")
    } catch let error as ValidationError {
        #expect(error.message == "--send needs message mode (no --byte-stream)")
    }
}

/// `waware connect` wrote what the peer sent (messages, a byte stream, its words in status lines) raw, where
/// every other output is escaped (security review, issue 24): an escape sequence or a bidi override from the
/// peer reached the terminal. Now it goes through `TerminalText.escapedLines`, as every other line does.
@Test func whatThePeerSendsIsEscapedBeforeItReachesTheTerminal() {
    let hostile: [UInt8] = Array("ok\u{1B}[2J\u{1B}]0;title\u{07}\u{202E}txt.exe\ttab\nnext".utf8)
    let shown = ConnectionRecord.peerText(hostile)
    #expect(shown == "ok\\u{1B}[2J\\u{1B}]0;title\\u{7}\\u{202E}txt.exe\ttab\nnext")
    #expect(!shown.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{07}" })
    var record = ConnectionRecord("message", service: "_chat._tcp", since: .now)
    record.text = ConnectionRecord.messageText(hostile)
    record.reason = "closed\u{1B}[31m by peer"
    let line = record.standardErrorLine
    #expect(line.hasSuffix(" s\n") && !line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
    #expect(line.contains("\\u{1B}[2J") && line.contains("closed\\u{1B}[31m by peer"))
}
