import NANEngine
import NANWire

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
        ],
        examples: [
            Example("waware publish _chat._tcp --info hello", "Publish with service info 'hello'."),
            Example("waware publish _chat._tcp --solicited --answer pong --json", "Answer only active subscribes; reply 'pong' to each message."),
            Example("waware publish _chat._tcp --ttl 10", "Publish for 10 seconds."),
        ]
    )

    static let arguments: [ArgumentSpec] =
        [.positional("service", help: "The service name, e.g. _chat._tcp (hashed to a service ID); several separated by commas.")]
        + DiscoveryArguments.common + [
            .flag("solicited", help: "Answer active subscribes."),
            .flag("unsolicited", help: "Announce in discovery windows without being asked."),
            .option("answer", value: "text", help: "Send this follow-up to every subscriber that asks or writes."),
            .flag("data-path", help: "Advertise that a data path can be set up for this service."),
        ]

    var values: DiscoveryArguments.Values
    var type: PublishType
    var answer: [UInt8]?
    var dataPath: Bool

    init(from parsed: ParsedValues) throws {
        values = try DiscoveryArguments.values(from: parsed)
        var type: PublishType = []
        if parsed.flag("solicited") { type.insert(.solicited) }
        if parsed.flag("unsolicited") { type.insert(.unsolicited) }
        self.type = type.isEmpty ? .both : type
        answer = parsed.option("answer").map { Array($0.utf8) }
        dataPath = parsed.flag("data-path")
        if let answer, answer.count > 255 {
            throw ValidationError("--answer is \(answer.count) bytes; at most 255 fit in a follow-up")
        }
    }

    /// The engine configuration for these options and one of the services.
    func publishConfiguration(_ serviceID: ServiceID) -> PublishConfiguration {
        var c = PublishConfiguration(serviceID: serviceID)
        c.type = type
        c.serviceInfo = values.info
        c.receiveFilter = values.receiveFilter
        c.transmitFilter = values.transmitFilter
        c.closeRangeOnly = values.closeRange
        c.offersDataPath = dataPath
        c.timeToLive = values.timeToLive
        return c
    }

    func run(_ output: Output) async throws {
        try await SignalCancellation.run {
            try await DiscoveryRun.withEngine(adapter: values.adapter, masterPreference: values.masterPreference) { engine, report in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for service in values.services {
                        let start = ContinuousClock.now
                        let session = try await engine.publish(publishConfiguration(service.id))
                        group.addTask {
                            try await publish(
                                session, name: service.name, since: start, engine: engine, phy: report.phy, output: output)
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    private func publish(
        _ session: DiscoverySession, name: String, since start: ContinuousClock.Instant, engine: NANEngine,
        phy: String, output: Output
    ) async throws {
        let clock = ContinuousClock()
        func record(_ event: String) -> DiscoveryRecord {
            var r = DiscoveryRecord(event)
            r.service = name
            r.localInstance = Int(session.instanceID.rawValue)
            r.elapsed = ClusterSession.seconds(clock.now - start)
            r.time = DiscoveryRun.wallClock()
            return r
        }
        var started = record("started")
        started.phy = phy
        started.address = engine.localAddress.description
        try started.write(json: values.json, to: output)
        var ended = false
        for await event in session {
            switch event {
            case .replied(let result), .discovered(let result):
                let delivery = startAnswer(result.peer, result.peerInstanceID, session: session)
                var r = record("replied")
                r.describe(result)
                try r.write(json: values.json, to: output)
                try await report(delivery, result.peer, result.peerInstanceID, record: record, output: output)
            case .messageReceived(let message):
                // Answer first, print after: an answer that reaches the radio within the DW in which the
                // message arrived goes out in that same DW.
                let delivery = startAnswer(message.peer, message.peerInstanceID, session: session)
                var r = record("message")
                r.peer = message.peer.description
                r.peerInstance = Int(message.peerInstanceID.rawValue)
                r.setInfo(message.payload)
                r.describe(message.radio)
                try r.write(json: values.json, to: output)
                try await report(delivery, message.peer, message.peerInstanceID, record: record, output: output)
            case .terminated(let reason):
                var r = record("terminated")
                r.reason = reason.description
                try r.write(json: values.json, to: output)
                ended = true
            }
        }
        if !ended {
            var r = record("terminated")
            r.reason = TerminationReason.userRequest.description
            try r.write(json: values.json, to: output)
        }
    }

    /// Starts sending `--answer` to a peer, if given.
    private func startAnswer(_ peer: MACAddress, _ instance: InstanceID, session: DiscoverySession) -> Task<DeliveryStatus?, any Error>? {
        guard let answer else { return nil }
        return Task {
            do {
                return try await session.send(answer, to: peer, peerInstanceID: instance)
            } catch let error as DiscoveryError where error == .sessionEnded {
                return nil
            }
        }
    }

    /// Prints the delivery status of an answer.
    private func report(
        _ delivery: Task<DeliveryStatus?, any Error>?, _ peer: MACAddress, _ instance: InstanceID,
        record: (String) -> DiscoveryRecord, output: Output
    ) async throws {
        guard let delivery, let answer, let status = try await delivery.value else { return }
        var r = record("sent")
        r.peer = peer.description
        r.peerInstance = Int(instance.rawValue)
        r.setInfo(answer)
        r.status = status.word
        try r.write(json: values.json, to: output)
    }
}
