import NANWire
@_spi(Tools) import WiFiAware

/// `waware subscribe <service>`: look for publishers of a service and print each one found.
struct SubscribeCommand: Command {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Subscribe to a NAN service and print each publisher found.",
        discussion: [
            "Starts NAN on the adapter and subscribes: passively (listen for unsolicited publishes) or, with "
                + "--active, by asking in every discovery window until answered. Each publisher is printed once "
                + "('discovered'), again only if its service info changes. Stops after --count publishers (and "
                + "--messages messages), after --timeout seconds (exit status 1 if fewer were found), on Ctrl-C, "
                + "or when --ttl runs out.",
            "--delay S waits S seconds after NAN is up before subscribing (the benchmark uses it to start at a "
                + "random point of the DW period, as an application would).",
            "--send TEXT sends TEXT as a follow-up to each publisher found and prints its delivery status "
                + "('sent ... acknowledged'). --srf-include/--srf-exclude limit which publishers may answer "
                + "(a service response filter; --srf-bloom sends it as a Bloom filter).",
        ],
        examples: [
            Example("waware subscribe _chat._tcp --count 1", "Wait for one publisher."),
            Example(
                "waware subscribe _chat._tcp --active --timeout 5 --json", "Ask actively for 5 seconds, JSON lines."),
            Example(
                "waware subscribe _chat._tcp --count 1 --send ping --messages 1",
                "Send 'ping' to the publisher found and wait for its answer."),
            Example(
                "waware subscribe _chat._tcp --count 1 --data-path --passphrase-file nan.pass --cipher-suite 256",
                "Set up an NCS-SK-256 data path to the publisher found; keep it until Ctrl-C."),
            Example(
                "waware subscribe _chat._tcp --count 1 --data-path --open",
                "Set up an open data path to the publisher found; keep it until Ctrl-C."),
            Example(
                "waware subscribe _chat._tcp --count 1 --data-path --open --idle-timeout 30",
                "The same, ended after 30 seconds without traffic."),
        ]
    )

    static let arguments: [ArgumentSpec] =
        [DiscoveryArguments.servicePositional.spec]
        + DiscoveryArguments.common + [
            Self.activeFlag.spec,
            Self.countOption.spec,
            Self.timeoutOption.spec,
            Self.sendOption.spec,
            Self.messagesOption.spec,
            Self.srfIncludeOption.spec,
            Self.srfExcludeOption.spec,
            Self.srfBloomFlag.spec,
            Self.delayOption.spec,
            Self.lostAfterOption.spec,
            DataPathArguments.requestFlag.spec,
        ] + DataPathArguments.all

    var values: DiscoveryArguments.Values
    var active: Bool
    var count: Int?
    var timeout: Double?
    var send: [UInt8]?
    var messages: Int
    var responseFilter: ServiceResponseFilter?
    var delay: Double?
    /// How the requested data path is protected; nil when none is requested.
    var dataPathSecurity: WADataPathSecurity?
    /// The requested data path ends after this long without traffic; nil never.
    var idleTimeout: Duration?
    /// DW periods of silence before a publisher is reported lost; nil never.
    var lostAfter: Int?

    /// --lost-after's default: 20 DW periods, the API's 10 s peer timeout.
    static let defaultLostAfter = 20

    /// Most addresses a service response filter list carries (its body follows a one-byte length).
    static let maximumResponseFilterAddresses = 42

    init(from parsed: ParsedValues) throws {
        values = try DiscoveryArguments.values(from: parsed)
        dataPathSecurity = try DataPathArguments.security(
            from: parsed, required: parsed.flag(DataPathArguments.requestFlag), flag: "data-path")
        idleTimeout = try DataPathArguments.idleTimeout(
            from: parsed, required: parsed.flag(DataPathArguments.requestFlag), flag: "data-path")
        if values.transport == .unsynchronized, dataPathSecurity != nil {
            throw ValidationError("--data-path needs NAN: USD (--usd) has no data path")
        }
        delay = try parsed.option(
            Self.delayOption, expected: "a number of seconds from 0 to 999999, such as 0.25",
            ArgumentValues.seconds { $0 >= 0 && $0 < 1e6 })
        active = parsed.flag(Self.activeFlag)
        let lost =
            try parsed.option(
                Self.lostAfterOption, expected: "a number of DW periods from 0 to 1000000",
                ArgumentValues.integer(in: 0...1_000_000))
            ?? Self.defaultLostAfter
        lostAfter = lost == 0 ? nil : lost
        count = try parsed.option(
            Self.countOption, expected: "a number from 1 to 100000", ArgumentValues.integer(in: 1...100_000))
        timeout = try parsed.option(
            Self.timeoutOption, expected: "a number of seconds above 0 and below 10000000, such as 5 or 0.5",
            ArgumentValues.seconds { $0 > 0 && $0 < 1e7 })
        send = parsed.option(Self.sendOption).map { Array($0.utf8) }
        if let send, send.count > 255 {
            throw ValidationError("--send is \(send.count) bytes; at most 255 fit in a follow-up")
        }
        messages =
            try parsed.option(
                Self.messagesOption, expected: "a number from 0 to 100000", ArgumentValues.integer(in: 0...100_000))
            ?? 0
        let include = try parsed.option(
            Self.srfIncludeOption, expected: "MAC addresses separated by ','", DiscoveryArguments.addresses)
        let exclude = try parsed.option(
            Self.srfExcludeOption, expected: "MAC addresses separated by ','", DiscoveryArguments.addresses)
        if include != nil && exclude != nil {
            throw ValidationError("give --srf-include or --srf-exclude, not both")
        }
        if let list = include ?? exclude {
            let set: ServiceResponseFilter.AddressSet
            if parsed.flag(Self.srfBloomFlag) {
                do {
                    set = .bloomFilter(
                        try BloomFilter(index: 0, length: min(254, max(8, list.count * 2)), addresses: list))
                } catch {
                    throw ValidationError("cannot build a Bloom filter of \(list.count) addresses: \(error)")
                }
            } else {
                guard list.count <= Self.maximumResponseFilterAddresses else {
                    throw ValidationError(
                        "--srf-\(include != nil ? "include" : "exclude") lists \(list.count) addresses; at most "
                            + "\(Self.maximumResponseFilterAddresses) fit in a discovery frame (add --srf-bloom to send a Bloom filter)"
                    )
                }
                set = .addresses(list)
            }
            responseFilter = ServiceResponseFilter(include: include != nil, addressSet: set)
        } else if parsed.flag(Self.srfBloomFlag) {
            throw ValidationError("--srf-bloom needs --srf-include or --srf-exclude")
        }
    }

    /// The service as this command declares it (the CLI takes names at run time, so it declares in code).
    func service(_ name: WAServiceName) throws -> WASubscribableService {
        try WASubscribableService(name: name, serviceInfo: values.info)
    }

    /// The WiFiAware parameters for these options.
    var parameters: WASubscriberParameters {
        var p = WASubscriberParameters()
        p.active = active
        p.receiveFilter = values.receiveFilter
        p.transmitFilter = values.transmitFilter
        p.responseFilter = responseFilter
        p.closeRangeOnly = values.closeRange
        p.timeLimit = values.timeLimit
        p.discoveryWindowLimit = values.discoveryWindowLimit
        // A publisher is printed when found, and "lost" when not heard for --lost-after DW periods or when its
        // device leaves the selection.
        p.peerTimeout = lostAfter.map { WADiscoveryWindow.period * $0 }
        return p
    }

    func run(_ output: Output) async throws {
        try await values.runSessions(delay: delay, output: output) { system, phy, devices, _, name, serviceName in
            let subscriber = system.subscribe(to: try service(serviceName), from: devices, parameters: parameters)
            try await subscribe(subscriber, name: name, since: .now, system: system, phy: phy, output: output)
        }
    }

    /// Runs one subscription until it ends; with `--timeout`, stops it then and cancels whatever is
    /// still running ``SubscriptionTimeout/grace`` later, so the process never outlives its timeout by more.
    private func subscribe(
        _ subscriber: WASubscriber, name: String, since start: ContinuousClock.Instant, system: WASystem,
        phy: String, output: Output
    ) async throws {
        try await SubscriptionTimeout.run(subscriber, timeout: timeout) { timedOut in
            try await receive(
                from: subscriber, name: name, since: start, system: system, phy: phy, timedOut: timedOut, output: output
            )
        }
    }

    private func receive(
        from subscriber: WASubscriber, name: String, since start: ContinuousClock.Instant, system: WASystem,
        phy: String, timedOut: TimeoutMark, output: Output
    ) async throws {
        var records = SessionRecords(service: name, start: start)
        // Paired publishers are verified with their pairing keys (by the session, or before a data path).
        let verificationLines = records.printVerifications(of: system, json: values.json, to: output)
        defer { verificationLines.cancel() }
        var found = 0
        var received = 0
        var reason: WATerminationReason?
        var dataPath: Task<Void, any Error>?
        defer { dataPath?.cancel() }
        func done() -> Bool { count.map { found >= $0 && received >= messages } ?? false }
        for try await event in subscriber {
            switch event {
            case .started(let id):
                try records.started(id, phy: phy, address: system.localAddress, transport: system.transport).write(
                    json: values.json, to: output)
            case .discovered(let endpoint), .updated(let endpoint):
                found += 1
                if let dataPathSecurity, dataPath == nil {
                    let (json, idleTimeout) = (values.json, idleTimeout)
                    dataPath = Task {
                        try await system.withDataPath(
                            to: endpoint, security: dataPathSecurity, idleTimeout: idleTimeout
                        ) { connection, events in
                            try DataPathRecord.from(.connected(connection), service: name, since: start).write(
                                json: json, to: output)
                            for await event in events {
                                try DataPathRecord.from(event, service: name, since: start).write(
                                    json: json, to: output)
                            }
                        }
                    }
                }
                // The follow-up starts before anything is printed: if it reaches the radio within the DW in
                // which the publish arrived, it is delivered in that same DW.
                var sending = records.record("sending")
                let delivery = send.map { payload in
                    Task { try await subscriber.send(payload, to: endpoint) }
                }
                try records.record("discovered", endpoint).write(json: values.json, to: output)
                if let send, let delivery {
                    sending.peer = endpoint.address.description
                    sending.peerInstance = Int(endpoint.instanceID.rawValue)
                    if values.json { try sending.write(json: true, to: output) }
                    let status = try await withTaskCancellationHandler {
                        try await delivery.value
                    } onCancel: {
                        delivery.cancel()
                    }
                    try records.sent(send, to: endpoint, status: status).write(json: values.json, to: output)
                }
            case .lost(let endpoint):
                try records.record("lost", endpoint).write(json: values.json, to: output)
            case .eventsLost(let dropped):
                output.fail(records.eventsLostNotice(droppedEvents: dropped))
            case .messageReceived(let message):
                received += 1
                try records.message(message).write(json: values.json, to: output)
            case .terminated(let why):
                reason = why
            }
            if done() { await subscriber.stop() }
        }
        if let dataPath {
            // The data path outlives the discovery: keep it until Ctrl-C, --timeout or the peer ends it.
            try await withTaskCancellationHandler {
                try await dataPath.value
            } onCancel: {
                dataPath.cancel()
            }
        }
        let timedOut = timedOut.isSet && !done()
        try records.terminated(timedOut ? "timeout" : (reason ?? .userRequest).description).write(
            json: values.json, to: output)
        if timedOut, let count, found < count {
            throw CommandFailure("found \(found) of \(count) publishers of \(name) before the timeout")
        }
        if timedOut, received < messages {
            throw CommandFailure("received \(received) of \(messages) messages before the timeout")
        }
    }
}

/// The typed keys of the arguments `SubscribeCommand` declares: listed in `arguments` by their `spec`, read with them.
extension SubscribeCommand {
    static let activeFlag = FlagKey("active", help: "Send subscribe messages until answered (default: passive).")
    static let countOption = OptionKey("count", short: "n", value: "count", help: "Stop after this many publishers.")
    static let timeoutOption = OptionKey(
        "timeout", value: "seconds", help: "Stop after this many seconds (status 1 if --count was not reached).")
    static let sendOption = OptionKey("send", value: "text", help: "Send this follow-up to each publisher found.")
    static let messagesOption = OptionKey(
        "messages", value: "count", help: "With --count: also wait for this many messages.")
    static let srfIncludeOption = OptionKey(
        "srf-include", value: "macs", help: "Only these publishers (NMI addresses, comma-separated) may answer.")
    static let srfExcludeOption = OptionKey("srf-exclude", value: "macs", help: "These publishers may not answer.")
    static let srfBloomFlag = FlagKey(
        "srf-bloom", help: "Send the service response filter as a Bloom filter rather than a list.")
    static let delayOption = OptionKey(
        "delay", value: "seconds", help: "Wait this long after NAN is up before subscribing.")
    static let lostAfterOption = OptionKey(
        "lost-after", value: "DWs",
        help: "Print 'lost' for a publisher not heard for this many DW periods (0.524 s each; default 20, 0 never).")
}
