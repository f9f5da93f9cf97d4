public import NANLogging
public import NANSystem
internal import Synchronization

/// The daemon's listener: accepts programs on the socket, lets in those the ``AccessPolicy`` allows, and
/// serves each as a ``DaemonClient`` with a reader and a writer task of its own, so that no client waits on
/// another.
public final class DaemonServer: Sendable {
    let listener: LocalSocket
    let radios: any RadioProvider
    let policy: AccessPolicy
    let limits: DaemonLimits
    let logger: Logger
    private let clients = Mutex<(next: Int, live: [Int: DaemonClient])>((1, [:]))

    /// A server on `listener`.
    public init(
        listener: LocalSocket, radios: any RadioProvider, policy: AccessPolicy = AccessPolicy(),
        limits: DaemonLimits = DaemonLimits(), logger: Logger = .disabled
    ) {
        self.listener = listener
        self.radios = radios
        self.policy = policy
        self.limits = limits
        self.logger = logger
    }

    /// Accepts and serves clients until the task is cancelled (or the listener fails); then ends every client.
    public func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            defer { listener.cancel() }
            while !Task.isCancelled {
                let connection: LocalSocket
                do throws(StreamSocketError) {
                    connection = try await listener.accept()
                } catch  where error.isCancelled {
                    break
                }
                group.addTask { await self.serve(connection) }
            }
            group.cancelAll()
        }
    }

    /// The lines of `status`: clients and their sessions.
    public func clientLines() async -> [String] {
        let live = clients.withLock { Array($0.live.values) }
        var lines: [String] = ["clients \(live.count)"]
        for client in live { lines += await client.statusLines() }
        return lines
    }

    private func serve(_ connection: LocalSocket) async {
        let peer = connection.peer ?? PeerCredentials(processID: 0, userID: .max, groupID: .max)
        if let refusal = policy.refusal(of: peer) {
            logger.info("refused \(peer): \(refusal.message)")
            try? await connection.send(LineCodec.encode(DaemonMessage.error(nil, refusal)), timeout: .seconds(1))
            connection.cancel()
            return
        }
        let key: Int? = clients.withLock { c in
            guard c.live.count < limits.clients else { return nil }
            defer { c.next += 1 }
            return c.next
        }
        guard let key else {
            try? await connection.send(
                LineCodec.encode(DaemonMessage.error(nil, .limit("wawared serves \(limits.clients) clients already"))),
                timeout: .seconds(1))
            connection.cancel()
            return
        }
        let outbox = Outbox(limits: limits)
        let client = DaemonClient(
            name: "\(key) (pid \(peer.processID) uid \(peer.userID))", radios: radios, limits: limits, outbox: outbox,
            disconnect: { connection.cancel() })
        clients.withLock { $0.live[key] = client }
        logger.info("client \(key) connected: \(peer)")
        let writer = Task { [limits] in
            while let line = await outbox.next() {
                do {
                    try await connection.send(line, timeout: limits.slowReaderTimeout)
                } catch {
                    // A client that stops reading for the timeout (or went away) is cut off.
                    connection.cancel()
                    return
                }
            }
        }
        var codec = LineCodec()
        reading: while true {
            let bytes: [UInt8]
            do {
                bytes = try await connection.receive(maximum: 16_384)
            } catch {
                break
            }
            guard !bytes.isEmpty else { break }
            for output in codec.feed(bytes) {
                switch output {
                case .line(let line):
                    await client.handle(line: line)
                case .overlong:
                    _ = outbox.enqueueReply(
                        LineCodec.encode(
                            DaemonMessage.error(
                                nil, .invalidRequest("a line longer than \(DaemonProtocol.maximumLineLength) bytes"))))
                    break reading
                }
            }
            if connection.isCancelled || outbox.isClosed { break }
        }
        await client.end()
        // Let the last answers out (bounded by the writer's timeout), then close.
        _ = await writer.value
        connection.cancel()
        clients.withLock { _ = $0.live.removeValue(forKey: key) }
        logger.info("client \(key) gone; its sessions stopped")
    }
}
