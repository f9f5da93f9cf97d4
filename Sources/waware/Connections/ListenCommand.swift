import FoundationEssentials
import NANWire
@_spi(Tools) import WiFiAware

/// `waware listen <service>`: publish a service, accept connections over data paths, print (or echo)
/// their messages and save the files they send.
struct ListenCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Accept connections over NAN data paths and print or echo their messages.",
        discussion: [
            "Publishes the service with the listener's TCP port in its service info, accepts data paths (by default "
                + "from paired devices, keyed by the pairing; or with --passphrase-file, --pmk-file or --open) and the connections "
                + "over them: mutual TLS 1.3 unless --plain (announced on standard error). A peer's certificate must be the "
                + "one pinned to its paired device (learned on the first connection over a data path keyed by the pairing); "
                + "an unpaired peer is refused unless --tofu. Each connection starts with both devices' peer identifiers. Messages are printed ('message ... \"text\"'), or with --echo sent "
                + "back; files sent with 'waware connect --send-file' are saved in --receive-dir (checked with SHA-256, "
                + "never left half-written under their name) and acknowledged to the sender.",
            "With --datagrams the listener also agrees best-effort UDP datagrams with connections that ask for them; "
                + "each one received is printed ('datagram ...'), with --echo sent back as a datagram, and a connection "
                + "that had them ends with a 'datagram-stats' line (docs/datagrams.md).",
            "With --connect-to-found the listener also browses for the same service and connects to the first listener "
                + "it finds (of the selected devices), so two devices that both run it end up connected whichever starts "
                + "first. When both connect at once they keep one connection: one data path (the one the device with the "
                + "larger NMI asked for; the other request is declined, printed as 'connect-ended') and, should two "
                + "connections still come up, the one made by the peer with the smaller peer identifier (TN3213). The "
                + "connection kept is printed as 'connected' on both sides, 'direction in' or 'out'. --send TEXT sends "
                + "one message on every connection once it is ready.",
            "Runs until Ctrl-C, or until --count connections have ended.",
        ],
        examples: [
            Example(
                "waware listen _chat._tcp --echo",
                "Echo every message of paired devices back (TLS, data paths keyed by the pairing)."),
            Example(
                "waware listen _chat._tcp --passphrase-file nan.pass --tofu --echo",
                "Also accept unpaired peers, trusting their certificate on first use."),
            Example(
                "waware listen _files._tcp --open --plain --receive-dir /tmp/in --count 1 --json",
                "Plain TCP over open data paths: save the files of one connection in /tmp/in, JSON lines."),
            Example(
                "waware listen _chat._tcp --connect-to-found --send hello",
                "Run on both devices: whichever finds the other first connects; one connection, 'hello' each way."),
            Example(
                "waware listen _game._udp --datagrams --echo --json",
                "Print every datagram (and message) from paired devices and send it back."),
        ]
    )

    static let echoFlag = FlagKey("echo", help: "Send every message back to its sender.")
    static let receiveDirOption = OptionKey(
        "receive-dir", value: "folder", help: "Save received files here (default: refuse files).")
    static let countOption = OptionKey("count", value: "n", help: "End after this many connections have ended.")
    static let portOption = OptionKey(
        "port", value: "n", help: "Listen on this TCP port (default: one the kernel picks).")
    static let connectToFoundFlag = FlagKey(
        "connect-to-found",
        help:
            "Also browse for the service and connect to the first listener found (both devices may do so at once: one connection is kept)."
    )
    static let sendOption = OptionKey(
        "send", value: "text", help: "Send this message on every connection once it is ready.")

    static let arguments: [ArgumentSpec] =
        ConnectionArguments.common + [
            echoFlag.spec, receiveDirOption.spec, countOption.spec, portOption.spec, connectToFoundFlag.spec,
            sendOption.spec,
        ]

    var values: ConnectionArguments.Values
    var echo: Bool
    var receiveDir: String?
    var count: Int?
    var connectToFound: Bool
    var send: String?

    init(from parsed: ParsedValues) throws {
        values = try ConnectionArguments.values(from: parsed)
        echo = parsed.flag(Self.echoFlag)
        receiveDir = parsed.option(Self.receiveDirOption)
        connectToFound = parsed.flag(Self.connectToFoundFlag)
        send = parsed.option(Self.sendOption)
        if send != nil && values.parameters.mode == .byteStream {
            throw ValidationError("--send needs message mode (no --byte-stream)")
        }
        count = try parsed.option(
            Self.countOption, expected: "a number from 1 to 100000", ArgumentValues.integer(in: 1...100_000))
        if let port = try parsed.option(
            Self.portOption, expected: "a port from 1 to 65535", ArgumentValues.integer(in: 1...65535))
        {
            values.parameters.listenerPort = UInt16(port)
        }
        if receiveDir != nil && values.parameters.mode == .byteStream {
            throw ValidationError("--receive-dir needs message mode (no --byte-stream)")
        }
    }

    func run(_ output: Output) async throws {
        ConnectionArguments.announce(values.parameters, output: output)
        let (service, parameters, json, name) = (
            try WAPublishableService(name: values.service), values.parameters, values.json, values.service.rawValue
        )
        let start = ContinuousClock.now
        try await ConnectionArguments.withConnectionExitCodes {
            try await SignalCancellation.run {
                try await DiscoveryRun.withSystem(adapter: values.adapter, masterPreference: 2) { system, _ in
                    let devices = try values.devices.selection(in: system.store)
                    let ours = try ConnectionArguments.localFingerprint(parameters, store: system.store)
                    let (ended, endedContinuation) = AsyncStream.makeStream(of: Void.self)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await event in system.listener(for: service, from: devices, parameters: parameters)
                            {
                                var r = ConnectionRecord("", service: name, since: start)
                                switch event {
                                case .ready(let port):
                                    r.event = "listening"
                                    r.port = Int(port)
                                    r.transport = parameters.transport.description
                                    r.fingerprint = ours
                                case .dataPathUp(let dp):
                                    r.event = "data-path-up"
                                    (r.peer, r.interface, r.localAddress, r.peerAddress) = (
                                        dp.peer.description, dp.interfaceName, dp.localAddress.description,
                                        dp.peerAddress.description
                                    )
                                case .dataPathDown(let peer, let reason):
                                    r.event = "data-path-down"
                                    (r.peer, r.reason) = (peer.description, reason.description)
                                case .refused(let error):
                                    r.event = "refused"
                                    r.reason = error.message
                                case .connection(let connection):
                                    r.event = "connected"
                                    r.describe(connection)
                                    r.direction = "in"
                                    Task {
                                        await serve(connection, service: name, since: start, output: output)
                                        endedContinuation.yield()
                                    }
                                }
                                try r.write(json: json, to: output)
                            }
                        }
                        if connectToFound {
                            group.addTask {
                                await connectToFirstFound(
                                    system: system, devices: devices, service: name, since: start, output: output)
                                endedContinuation.yield()
                                // Leaving would end the group (and the listener): wait for Ctrl-C or --count.
                                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
                            }
                        }
                        if let count {
                            group.addTask {
                                var n = 0
                                for await _ in ended {
                                    n += 1
                                    if n >= count { return }
                                }
                            }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
            }
        }
    }

    /// --connect-to-found: browses for the service, connects to the first listener found and serves the
    /// connection as an accepted one. A connection not kept (the peer's data path or connection goes on:
    /// both devices connected at once) or failing is one `connect-ended` line; the listener goes on.
    private func connectToFirstFound(
        system: WASystem, devices: WADeviceSelection, service: String,
        since start: ContinuousClock.Instant, output: Output
    ) async {
        do {
            let subscribable = try WASubscribableService(name: values.service, wantsDataPath: true)
            var found: WAEndpoint?
            for try await case .found(let endpoint) in system.browser(for: subscribable, from: devices) {
                found = endpoint
                break
            }
            guard let endpoint = found else { return }
            var r = ConnectionRecord("found", service: service, since: start)
            (r.peer, r.device) = (endpoint.address.description, endpoint.device?.displayName)
            try r.write(json: values.json, to: output)
            try await system.withConnection(to: endpoint, parameters: values.parameters) { connection in
                var r = ConnectionRecord("connected", service: service, since: start)
                r.describe(connection)
                r.direction = "out"
                try r.write(json: values.json, to: output)
                await serve(connection, service: service, since: start, output: output)
            }
        } catch {
            if Task.isCancelled { return }
            var r = ConnectionRecord("connect-ended", service: service, since: start)
            r.reason = (error as? WAError)?.message ?? "\(error)"
            try? r.write(json: values.json, to: output)
        }
    }

    /// Reads one connection to its end: prints, echoes, saves files.
    private func serve(
        _ connection: WAConnection, service: String, since start: ContinuousClock.Instant, output: Output
    ) async {
        var closing = ConnectionRecord("closed", service: service, since: start)
        let (json, echo) = (values.json, self.echo)
        if let send {
            do { try await connection.send(Array(send.utf8)) } catch {
                closing.reason = error.message
            }
        }
        let datagrams = Task {
            await DatagramOutput.printReceived(
                on: connection, service: service, since: start, json: json, output: output,
                echo: echo, textToStandardError: false)
        }
        do {
            if connection.mode == .byteStream {
                while true {
                    let bytes = try await connection.read()
                    if bytes.isEmpty { break }
                    if echo {
                        try await connection.write(bytes)
                    } else {
                        Output.emit(ConnectionRecord.peerText(bytes), to: .standardOutput)
                    }
                }
            } else {
                while let content = try await connection.receive() {
                    switch content {
                    case .message(let bytes):
                        var r = ConnectionRecord("message", service: service, since: start)
                        r.peerID = connection.remotePeer.description
                        r.text = ConnectionRecord.messageText(bytes)
                        r.bytes = bytes.count
                        try r.write(json: values.json, to: output)
                        if echo { try await connection.send(bytes) }
                    case .resource(let offer):
                        try await receive(offer, on: connection, service: service, since: start, output: output)
                    }
                }
            }
        } catch let error as WAError {
            closing.reason = error.message
        } catch {
            closing.reason = "\(error)"
        }
        connection.cancel()
        await datagrams.value
        if let stats = DatagramOutput.statistics(of: connection, service: service, since: start) {
            try? stats.write(json: values.json, to: output)
        }
        closing.peerID = connection.remotePeer.description
        closing.seconds = ConnectionRecord("", service: service, since: start).seconds
        try? closing.write(json: values.json, to: output)
    }

    private func receive(
        _ offer: WAResourceOffer, on connection: WAConnection, service: String,
        since start: ContinuousClock.Instant, output: Output
    ) async throws {
        guard let receiveDir else {
            connection.cancel()
            throw WAError(
                .connectionTerminated, message: "the peer sent a file (\(offer.name)) and there is no --receive-dir")
        }
        var r = ConnectionRecord("file-started", service: service, since: start)
        (r.peerID, r.file, r.size) = (connection.remotePeer.description, offer.name, offer.size)
        try r.write(json: values.json, to: output)
        let path = receiveDir + "/" + offer.name
        let digest = try await connection.receiveResource(offer, to: path)
        var done = ConnectionRecord("file-received", service: service, since: start)
        (done.peerID, done.file, done.size, done.sha256) = (connection.remotePeer.description, path, offer.size, digest)
        try done.write(json: values.json, to: output)
        try await connection.send(Array("received \(offer.name) \(offer.size) sha256 \(digest)".utf8))
    }
}
