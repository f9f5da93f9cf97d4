import FoundationEssentials
import NANWire
@_spi(Tools) import WiFiAware

/// `waware connect <service>`: find a listener, connect over a data path, and then act like netcat
/// (standard input to the peer, the peer to standard output) or send a file.
struct ConnectCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Connect to a listener over a NAN data path: standard input and output, or send a file.",
        discussion: [
            "Browses for the service (active subscribe), takes the first listener found (of the selected "
                + "devices), sets up the data path to it (by default keyed by the pairing; or with --passphrase-file, --pmk-file or "
                + "--open) and connects with mutual TLS 1.3 (plain TCP only with --plain, which is announced): the "
                + "listener's certificate must be the one pinned to its paired device, learned on the first connection "
                + "over a data path keyed by the pairing; an unpaired listener is refused unless --tofu. "
                + "Then, like netcat: each line of standard input is sent as a message and every message received "
                + "is written to standard output; at the end of standard input this side finishes sending and waits "
                + "until the peer closes. Status lines go to standard error ('connected ...'), or with --json every "
                + "line goes to standard output as JSON.",
            "--send TEXT sends one message instead of reading standard input; --messages N waits for N messages "
                + "before finishing. --send-file PATH sends a file with a progress bar and waits for the listener's "
                + "acknowledgement with its SHA-256. --timeout S gives up (exit status 20) if no connection is "
                + "ready within S seconds.",
            "--datagrams agrees best-effort UDP datagrams beside the connection and prints those received on standard "
                + "error; --datagram TEXT sends TEXT as one (--datagram-count N times, 100 ms apart, numbered) and "
                + "--wait-datagrams N waits up to 15 s for N from the peer before the messages (docs/datagrams.md).",
        ],
        examples: [
            Example("waware connect _chat._tcp", "Type lines to a paired listener over TLS; see its answers."),
            Example("waware connect _chat._tcp --send ping --messages 1", "Send 'ping', print the answer, end."),
            Example("waware connect _files._tcp --send-file photo.jpg", "Send a file with a progress bar."),
            Example(
                "waware connect _chat._tcp --open --plain --send ping --messages 1", "Plain TCP over an open data path."
            ),
            Example(
                "waware connect _game._udp --datagram ping --datagram-count 10 --wait-datagrams 1 --send hi --messages 1 --json",
                "Ten best-effort datagrams and a message to a 'listen --datagrams --echo'; print what comes back."),
        ]
    )

    static let sendOption = OptionKey(
        "send", value: "text", help: "Send this message instead of reading standard input.")
    static let messagesOption = OptionKey(
        "messages", value: "n", help: "Wait for this many messages from the peer, then finish.")
    static let sendFileOption = OptionKey(
        "send-file", value: "path", help: "Send this file (with a progress bar on a terminal).")
    static let timeoutOption = OptionKey(
        "timeout", value: "seconds", help: "Give up if no connection is ready within this many seconds.")

    static let arguments: [ArgumentSpec] =
        ConnectionArguments.common + [
            sendOption.spec, messagesOption.spec, sendFileOption.spec, timeoutOption.spec,
        ] + DatagramArguments.connect

    var values: ConnectionArguments.Values
    var send: String?
    var messages: Int?
    var sendFile: String?
    var timeout: Double?
    var datagrams = DatagramArguments.Plan()

    init(from parsed: ParsedValues) throws {
        values = try ConnectionArguments.values(from: parsed)
        datagrams = try DatagramArguments.plan(from: parsed, parameters: &values.parameters)
        send = parsed.option(Self.sendOption)
        sendFile = parsed.option(Self.sendFileOption)
        messages = try parsed.option(
            Self.messagesOption, expected: "a number from 0 to 100000", ArgumentValues.integer(in: 0...100_000))
        timeout = try parsed.option(
            Self.timeoutOption, expected: "a number of seconds above 0, such as 60",
            ArgumentValues.seconds { $0 > 0 && $0 < 1e7 })
        if send != nil && sendFile != nil { throw ValidationError("give --send or --send-file, not both") }
        if sendFile != nil && values.parameters.mode == .byteStream {
            throw ValidationError("--send-file needs message mode (no --byte-stream)")
        }
        if sendFile != nil && messages == nil { messages = 1 }
        if let timeout { values.parameters.setupTimeout = .milliseconds(Int64(timeout * 1000)) }
    }

    func run(_ output: Output) async throws {
        ConnectionArguments.announce(values.parameters, output: output)
        let service = try WASubscribableService(name: values.service, wantsDataPath: true)
        let (name, json, parameters) = (values.service.rawValue, values.json, values.parameters)
        let start = ContinuousClock.now
        try await ConnectionArguments.withConnectionExitCodes {
            try await SignalCancellation.run {
                try await DiscoveryRun.withSystem(adapter: values.adapter, masterPreference: 2) { system, _ in
                    let devices = try values.devices.selection(in: system.store)
                    let endpoint = try await firstListener(system.browser(for: service, from: devices), service: name)
                    var found = ConnectionRecord("found", service: name, since: start)
                    (found.peer, found.device) = (endpoint.address.description, endpoint.device?.displayName)
                    try found.write(json: json, to: output, textToStandardError: true)
                    try await system.withConnection(
                        to: endpoint, parameters: parameters,
                        onStateUpdate: { state in
                            if case .waiting = state {
                                var r = ConnectionRecord("state", service: name, since: start)
                                r.state = state.description
                                try? r.write(json: json, to: output, textToStandardError: true)
                            }
                        }
                    ) { connection in
                        var r = ConnectionRecord("connected", service: name, since: start)
                        r.describe(connection)
                        r.fingerprint = try? ConnectionArguments.localFingerprint(parameters, store: system.store)
                        try r.write(json: json, to: output, textToStandardError: true)
                        try await talk(over: connection, since: start, output: output)
                    }
                }
            }
        }
    }

    /// The first listener the browser finds; with --timeout, gives up after it.
    private func firstListener(_ browser: WAConnectionBrowser, service: String) async throws -> WAEndpoint {
        try await withThrowingTaskGroup(of: WAEndpoint?.self) { group in
            group.addTask {
                for try await case .found(let endpoint) in browser { return endpoint }
                return nil
            }
            if let timeout {
                group.addTask {
                    try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                    return nil
                }
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let endpoint = first else {
                throw WAError(
                    .connectionFailed,
                    message: "no listener of \(service) was found"
                        + (timeout.map { " within \(String(format3: $0)) s" } ?? ""))
            }
            return endpoint
        }
    }

    private func talk(over connection: WAConnection, since start: ContinuousClock.Instant, output: Output) async throws
    {
        let name = values.service.rawValue
        let json = values.json
        let printer = Task {
            await DatagramOutput.printReceived(
                on: connection, service: name, since: start, json: json, output: output,
                echo: false, textToStandardError: true)
        }
        defer {
            printer.cancel()
            try? DatagramOutput.statistics(of: connection, service: name, since: start)?.write(
                json: json, to: output, textToStandardError: true)
        }
        try await DatagramOutput.run(datagrams, on: connection)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                if connection.mode == .byteStream {
                    while true {
                        let bytes = try await connection.read()
                        if bytes.isEmpty { return }
                        Output.emit(ConnectionRecord.peerText(bytes), to: .standardOutput)
                    }
                }
                var received = 0
                while let content = try await connection.receive() {
                    guard case .message(let bytes) = content else {
                        throw WAError(
                            .connectionTerminated,
                            message: "the listener sent a file; 'waware connect' does not take files")
                    }
                    received += 1
                    if values.json {
                        var r = ConnectionRecord("message", service: name, since: start)
                        r.text = ConnectionRecord.messageText(bytes)
                        r.bytes = bytes.count
                        try output.writeJSON(r)
                    } else {
                        let text = ConnectionRecord.peerText(bytes)
                        Output.emit(text.hasSuffix("\n") ? text : text + "\n", to: .standardOutput)
                    }
                    if let messages, received >= messages {
                        await connection.finishSending()
                        return
                    }
                }
                if let messages, received < messages {
                    throw WAError(
                        .connectionTerminated,
                        message: "the peer closed the connection after \(received) of \(messages) messages")
                }
            }
            if let sendFile {
                // Then the listener's acknowledgement (--messages, 1 by default) ends the exchange.
                try await sendResource(sendFile, over: connection, since: start, output: output)
            } else if let send {
                try await write(Array(send.utf8), to: connection)
                if messages == nil || messages == 0 { await connection.finishSending() }
            } else {
                while let line = await StandardInput.nextLine() {
                    try await write(Array((line + "\n").utf8), to: connection)
                }
                await connection.finishSending()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    private func write(_ bytes: [UInt8], to connection: WAConnection) async throws {
        if connection.mode == .byteStream {
            try await connection.write(bytes)
        } else {
            try await connection.send(bytes)
        }
    }

    private func sendResource(
        _ path: String, over connection: WAConnection, since start: ContinuousClock.Instant, output: Output
    ) async throws {
        let bar = ProgressBar(enabled: !values.json)
        let sendStart = ContinuousClock.now
        try await connection.sendResource(at: path, progress: { progress in bar.show(progress) })
        bar.finish()
        var r = ConnectionRecord("file-sent", service: values.service.rawValue, since: start)
        let elapsed = ContinuousClock.now - sendStart
        r.file = path
        r.reason = "in \(String(format3: elapsed.inSeconds)) s"
        try r.write(json: values.json, to: output, textToStandardError: true)
    }
}
