public import NANEngine
public import NANWire
internal import Synchronization

/// One program connected to the daemon: its requests, its sessions (numbered for it alone), its queue of
/// lines. It sees the events of its own sessions only, may act on its own sessions only, and whatever it
/// does (garbage, floods, not reading, dying) ends at its own limits: the other clients never wait on it.
public actor DaemonClient {
    /// A running publish or subscribe of this client.
    struct Session {
        var instanceID: InstanceID
        var stop: @Sendable () async -> Void
        var pump: Task<Void, Never>
        var kind: DaemonMethod
        var service: String
    }

    /// Who the client is (for the status and the log).
    public let name: String
    let radios: any RadioProvider
    let limits: DaemonLimits
    let outbox: Outbox
    private var radio: (adapter: String, radio: any DaemonRadio)?
    private var sessions: [UInt32: Session] = [:]
    private var nextSession: UInt32 = 1
    private var invalid = 0
    private var followUps = 0
    private var ended = false
    /// Called once when the client must go (queue overflowed, too many invalid lines).
    private let disconnect: @Sendable () -> Void

    /// A client named `name` served from `radios` within `limits`; `disconnect` cuts its connection.
    init(
        name: String, radios: any RadioProvider, limits: DaemonLimits, outbox: Outbox,
        disconnect: @escaping @Sendable () -> Void
    ) {
        self.name = name
        self.radios = radios
        self.limits = limits
        self.outbox = outbox
        self.disconnect = disconnect
    }

    /// The sessions running, for the status.
    var sessionCount: Int { sessions.count }

    /// One line per session, for the status.
    func statusLines() -> [String] {
        sessions.keys.sorted().compactMap { number in
            sessions[number].map {
                "client \(name) session \(number) \($0.kind.rawValue) \($0.service) instance \($0.instanceID.rawValue)"
            }
        }
    }

    /// Handles one received line: a request is answered (a follow-up's status later, in its own task); a
    /// line that is not one is answered with `invalidRequest`, and too many of those end the client.
    func handle(line: [UInt8]) async {
        guard !ended else { return }
        switch LineCodec.decodeRequest(line) {
        case .failure(let failure):
            invalid += 1
            answer(.error(failure.id, failure.error))
            if invalid >= limits.invalidRequests {
                answer(.error(nil, .invalidRequest("\(invalid) lines that are not requests; disconnecting")))
                disconnect()
            }
        case .success(let request):
            await handle(request)
        }
    }

    /// Handles one request.
    func handle(_ request: DaemonRequest) async {
        do throws(DaemonError) {
            switch request.method {
            case .hello:
                try await hello(request)
            case .publish, .subscribe:
                try await start(request)
            case .send:
                try startSend(request)
            case .stop:
                guard let number = request.session, let session = sessions.removeValue(forKey: number) else {
                    throw .noSuchSession(request.session ?? 0)
                }
                await session.stop()
                answer(.reply(request.id, DaemonReply()))
            case .peers:
                guard let radio else { throw .invalidRequest("say hello first") }
                let now = ContinuousClock.now
                var reply = DaemonReply()
                reply.peers = await radio.radio.peers().map { WirePeer($0, now: now) }
                answer(.reply(request.id, reply))
            case .status:
                answer(.reply(request.id, Self.statusReply(lines: await radios.statusLines())))
            }
        } catch {
            answer(.error(request.id, error))
        }
    }

    /// The reply to `status`: its lines, and from them the adapters held (`adapter NAME nmi ...`) and the
    /// number of clients (`clients N`), with the daemon's release.
    static func statusReply(lines: [String]) -> DaemonReply {
        var reply = DaemonReply()
        reply.lines = lines
        reply.software = DaemonProtocol.softwareVersion
        reply.adapters = lines.compactMap { line in
            let words = line.split(separator: " ")
            return words.count >= 2 && words[0] == "adapter" ? String(words[1]) : nil
        }
        reply.clients =
            lines.lazy.compactMap { line -> Int? in
                let words = line.split(separator: " ")
                return words.count == 2 && words[0] == "clients" ? Int(words[1]) : nil
            }.first
        return reply
    }

    private func hello(_ request: DaemonRequest) async throws(DaemonError) {
        guard radio == nil else { throw .invalidRequest("hello was said already") }
        guard let adapter = request.adapter, !adapter.isEmpty, adapter.utf8.count <= 64 else {
            throw .invalidRequest("hello names no adapter")
        }
        let chosen = try await radios.radio(for: adapter)
        radio = (adapter, chosen)
        var reply = DaemonReply()
        reply.adapter = adapter
        reply.localAddress = chosen.localAddress.description
        answer(.reply(request.id, reply))
    }

    private func start(_ request: DaemonRequest) async throws(DaemonError) {
        guard let radio else { throw .invalidRequest("say hello first") }
        guard sessions.count < limits.sessions else {
            throw .limit("this client runs \(sessions.count) sessions already, the most one client may")
        }
        let started: DaemonRadioSession
        let service: String
        do {
            if request.method == .publish {
                guard let wire = request.publish else { throw DaemonError.invalidRequest("publish without `publish`") }
                let configuration = try wire.configuration()
                service = wire.serviceID
                started = try await radio.radio.startPublish(configuration)
            } else {
                guard let wire = request.subscribe else {
                    throw DaemonError.invalidRequest("subscribe without `subscribe`")
                }
                let configuration = try wire.configuration(now: .now)
                service = wire.serviceID
                started = try await radio.radio.startSubscribe(configuration)
            }
        } catch let error as DaemonError {
            throw error
        } catch {
            throw .engine("\(error)")
        }
        guard !ended else {
            await started.stop()
            return
        }
        let number = nextSession
        nextSession &+= 1
        var reply = DaemonReply()
        reply.session = number
        reply.instance = started.instanceID.rawValue
        // The reply goes before any event of the session: the client knows the session when its events come.
        answer(.reply(request.id, reply))
        let outbox = outbox
        let pump = Task { [weak self] in
            for await event in started.events {
                outbox.enqueueEvent(WireEvent(event, session: number, now: .now))
                if case .terminated = event { break }
            }
            await self?.ended(session: number)
        }
        sessions[number] = Session(
            instanceID: started.instanceID, stop: started.stop, pump: pump, kind: request.method, service: service)
    }

    private func ended(session number: UInt32) { sessions[number] = nil }

    private func startSend(_ request: DaemonRequest) throws(DaemonError) {
        guard let radio else { throw .invalidRequest("say hello first") }
        guard let number = request.session, let session = sessions[number] else {
            throw .noSuchSession(request.session ?? 0)
        }
        guard let send = request.send, let peer = MACAddress(send.peer) else {
            throw .invalidRequest("send without a peer address")
        }
        guard send.payload.count <= 255 else {
            throw .invalidRequest("a follow-up of \(send.payload.count) bytes; at most 255 fit")
        }
        guard followUps < limits.queuedFollowUps else {
            throw .limit(
                "\(followUps) follow-ups of this client wait for their status already, the most one client may")
        }
        followUps += 1
        let (id, local, engine) = (request.id, session.instanceID, radio.radio)
        Task {
            let message: DaemonMessage
            do {
                let status = try await engine.send(
                    send.payload, from: local, to: peer, peerInstanceID: InstanceID(send.peerInstance))
                var reply = DaemonReply()
                reply.status =
                    switch status {
                    case .acknowledged: "acknowledged"
                    case .notAcknowledged: "notAcknowledged"
                    case .handedToDriver: "handedToDriver"
                    }
                message = .reply(id, reply)
            } catch {
                message = .error(id, .engine("\(error)"))
            }
            await self.sent(message)
        }
    }

    private func sent(_ message: DaemonMessage) {
        followUps -= 1
        answer(message)
    }

    private func answer(_ message: DaemonMessage) {
        guard !ended else { return }
        if !outbox.enqueueReply(LineCodec.encode(message)) { disconnect() }
    }

    /// Ends the client: every session it started stops on the radio; nothing more is sent to it.
    func end() async {
        guard !ended else { return }
        ended = true
        outbox.close()
        let running = sessions
        sessions = [:]
        for session in running.values {
            session.pump.cancel()
            await session.stop()
        }
    }
}

/// Where clients get their adapter's radio: the daemon's runtimes, or a fake in tests.
public protocol RadioProvider: Sendable {
    /// The radio of adapter `name` (its phy name), started if it was not.
    func radio(for name: String) async throws(DaemonError) -> any DaemonRadio
    /// One line per adapter and client, for the status.
    func statusLines() async -> [String]
}
