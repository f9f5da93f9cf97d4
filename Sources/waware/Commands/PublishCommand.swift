import NANWire
@_spi(Tools) import WiFiAware

/// `waware publish <service>`: publish a service until interrupted (or its TTL), printing every subscriber
/// that asks and every message received.
struct PublishCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a NAN service and print subscribers and messages until interrupted.",
        discussion: [
            "Starts NAN on the adapter (a NAN interface owned by this process), publishes the service and prints "
                + "each active subscriber that matched ('replied') and each follow-up message ('message'). "
                + "Unsolicited publishes are announced in every discovery window; solicited ones answer active "
                + "subscribes. Without --solicited or --unsolicited it does both.",
            "With --answer TEXT every message and every active subscriber gets TEXT back as a follow-up; its "
                + "delivery status is printed ('sent ... acknowledged'). Ends on Ctrl-C or when --ttl / --ttl-dw "
                + "runs out ('terminated ... reason ttl').",
            "On a device that has paired, a paired device may verify this one with its pairing key (PASN, no "
                + "user): each outcome is printed, 'verified' with the device's name or 'not-paired' with why.",
        ],
        examples: [
            Example("waware publish _chat._tcp --info hello", "Publish with service info 'hello'."),
            Example(
                "waware publish _chat._tcp --solicited --answer pong --json",
                "Answer only active subscribes; reply 'pong' to each message."),
            Example("waware publish _chat._tcp --ttl 10", "Publish for 10 seconds."),
            Example(
                "waware publish _chat._tcp --accept-data-paths --passphrase-file nan.pass",
                "Accept secure (NCS-SK) data paths from peers with the same passphrase (the first line of nan.pass); print interface, addresses and cipher suite."
            ),
            Example(
                "waware publish _chat._tcp --accept-data-paths --open",
                "Accept open data paths; print each one's interface and addresses."),
            Example(
                "waware publish _chat._tcp --accept-data-paths --open --idle-timeout 60",
                "Accept open data paths; end each after a minute without traffic."),
        ]
    )

    static let arguments: [ArgumentSpec] =
        [DiscoveryArguments.servicePositional.spec]
        + DiscoveryArguments.common + [
            Self.solicitedFlag.spec,
            Self.unsolicitedFlag.spec,
            Self.answerOption.spec,
            Self.dataPathFlag.spec,
            DataPathArguments.acceptFlag.spec,
        ] + DataPathArguments.all

    var values: DiscoveryArguments.Values
    /// Answer active subscribes.
    var solicited: Bool
    /// Announce in discovery windows.
    var unsolicited: Bool
    var answer: [UInt8]?
    var dataPath: Bool
    /// How accepted data paths are protected; nil when data paths are not accepted.
    var acceptSecurity: WADataPathSecurity?
    /// Accepted data paths end after this long without traffic; nil never.
    var idleTimeout: Duration?

    init(from parsed: ParsedValues) throws {
        values = try DiscoveryArguments.values(from: parsed)
        // Neither flag means both.
        let solicited = parsed.flag(Self.solicitedFlag)
        let unsolicited = parsed.flag(Self.unsolicitedFlag)
        self.solicited = solicited || !unsolicited
        self.unsolicited = unsolicited || !solicited
        answer = parsed.option(Self.answerOption).map { Array($0.utf8) }
        acceptSecurity = try DataPathArguments.security(
            from: parsed, required: parsed.flag(DataPathArguments.acceptFlag), flag: "accept-data-paths")
        idleTimeout = try DataPathArguments.idleTimeout(
            from: parsed, required: parsed.flag(DataPathArguments.acceptFlag), flag: "accept-data-paths")
        dataPath = parsed.flag(Self.dataPathFlag) || acceptSecurity != nil
        if values.transport == .unsynchronized, dataPath {
            throw ValidationError("--data-path and --accept-data-paths need NAN: USD (--usd) has no data path")
        }
        if let answer, answer.count > 255 {
            throw ValidationError("--answer is \(answer.count) bytes; at most 255 fit in a follow-up")
        }
    }

    /// The service as this command declares it (the CLI takes names at run time, so it declares in code).
    func service(_ name: WAServiceName) throws -> WAPublishableService {
        try WAPublishableService(name: name, serviceInfo: values.info, wantsDataPath: dataPath)
    }

    /// The WiFiAware parameters for these options.
    var parameters: WAPublisherParameters {
        var p = WAPublisherParameters()
        p.solicited = solicited
        p.unsolicited = unsolicited
        p.receiveFilter = values.receiveFilter
        p.transmitFilter = values.transmitFilter
        p.closeRangeOnly = values.closeRange
        p.timeLimit = values.timeLimit
        p.discoveryWindowLimit = values.discoveryWindowLimit
        return p
    }

    func run(_ output: Output) async throws {
        try await values.runSessions(output: output) { system, phy, devices, index, name, serviceName in
            let publisher = system.publish(try service(serviceName), to: devices, parameters: parameters)
            try await publish(
                publisher, name: name, since: .now, system: system, phy: phy, reportsVerifications: index == 0,
                output: output)
        }
    }

    /// `reportsVerifications`: print `verified` / `not-paired` for the paired devices that verify this
    /// device with their pairing keys (the first service's session prints them, once for all).
    private func publish(
        _ publisher: WAPublisher, name: String, since start: ContinuousClock.Instant, system: WASystem,
        phy: String, reportsVerifications: Bool, output: Output
    ) async throws {
        var records = SessionRecords(service: name, start: start)
        let verificationLines =
            reportsVerifications ? records.printVerifications(of: system, json: values.json, to: output) : nil
        defer { verificationLines?.cancel() }
        var ended = false
        var accepting: Task<Void, any Error>?
        defer { accepting?.cancel() }
        for try await event in publisher {
            switch event {
            case .started(let id):
                try records.started(id, phy: phy, address: system.localAddress, transport: system.transport).write(
                    json: values.json, to: output)
                if let acceptSecurity {
                    let (json, devices, idleTimeout) = (
                        values.json, try values.devices.selection(in: system.store), idleTimeout
                    )
                    accepting = Task {
                        var evacuation = Diagnostics.dataPathEvacuation()
                        var evacuating: Task<Void, Never>?
                        defer { evacuating?.cancel() }
                        for try await event in system.acceptDataPaths(
                            for: publisher, from: devices, security: acceptSecurity,
                            idleTimeout: idleTimeout)
                        {
                            try DataPathRecord.from(event, service: name, since: start).write(json: json, to: output)
                            if case .connected = event, let (frequency, delay) = evacuation {
                                evacuation = nil
                                evacuating = Task {
                                    guard (try? await Task.sleep(for: delay)) != nil else { return }
                                    let left = await system.evacuate(frequency: frequency)
                                    output.fail(
                                        "evacuated \(frequency) MHz (WAWARE_DP_EVACUATE): data-path schedule now on \(left.map(String.init).joined(separator: ", ")) MHz"
                                    )
                                }
                            }
                        }
                    }
                }
            case .discovered(let endpoint), .updated(let endpoint):
                let delivery = startAnswer(endpoint, publisher: publisher)
                try records.record("replied", endpoint).write(json: values.json, to: output)
                try await report(delivery, endpoint, records: records, output: output)
            case .lost(let endpoint):
                try records.record("lost", endpoint).write(json: values.json, to: output)
            case .eventsLost(let dropped):
                output.fail(records.eventsLostNotice(droppedEvents: dropped))
            case .messageReceived(let message):
                // Answer first, print after: an answer that reaches the radio within the DW in which the
                // message arrived goes out in that same DW.
                let delivery = startAnswer(message.endpoint, publisher: publisher)
                try records.message(message).write(json: values.json, to: output)
                try await report(delivery, message.endpoint, records: records, output: output)
            case .terminated(let reason):
                try records.terminated(reason.description).write(json: values.json, to: output)
                ended = true
            }
        }
        if !ended {
            try records.terminated(WATerminationReason.userRequest.description).write(json: values.json, to: output)
        }
    }

    /// Starts sending `--answer` to an endpoint, if given; `nil` status if the publish ended meanwhile.
    private func startAnswer(_ endpoint: WAEndpoint, publisher: WAPublisher) -> Task<WADeliveryStatus?, any Error>? {
        guard let answer else { return nil }
        return Task {
            do {
                return try await publisher.send(answer, to: endpoint)
            } catch let error as WAError where error.code == .connectionTerminated {
                return nil
            }
        }
    }

    /// Prints the delivery status of an answer.
    private func report(
        _ delivery: Task<WADeliveryStatus?, any Error>?, _ endpoint: WAEndpoint, records: SessionRecords, output: Output
    ) async throws {
        guard let delivery, let answer, let status = try await delivery.value else { return }
        try records.sent(answer, to: endpoint, status: status).write(json: values.json, to: output)
    }
}

/// The typed keys of the arguments `PublishCommand` declares: listed in `arguments` by their `spec`, read with them.
extension PublishCommand {
    static let solicitedFlag = FlagKey("solicited", help: "Answer active subscribes.")
    static let unsolicitedFlag = FlagKey("unsolicited", help: "Announce in discovery windows without being asked.")
    static let answerOption = OptionKey(
        "answer", value: "text", help: "Send this follow-up to every subscriber that asks or writes.")
    static let dataPathFlag = FlagKey("data-path", help: "Advertise that a data path can be set up for this service.")
}
