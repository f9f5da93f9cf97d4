extension WAConnection {
    /// Whether both ends agreed best-effort datagrams (both set ``WAConnectionParameters/datagrams``).
    public var hasDatagrams: Bool { datagramChannel != nil }

    /// The largest datagram ``send(datagram:)`` takes: the peer's limit; nil without datagrams.
    public var maximumDatagramSize: Int? { datagramChannel?.peerMaximumSize }

    /// How the datagrams are protected: AES-256-GCM with keys exported from the TLS session, or, over plain
    /// TCP, keys from values exchanged in the clear (stray datagrams are dropped, nothing is secret); nil
    /// without datagrams.
    public var datagramProtection: String? { datagramChannel?.protection }

    /// Sends one best-effort datagram over UDP beside the connection: it may be lost, duplicated datagrams
    /// are dropped by the peer, and the order is not kept. Never waits: one that finds the socket's buffer
    /// full is not sent and is counted (``WADatagramStatistics/sendFailed``).
    ///
    /// - Throws: ``WAError/Code/invalidArgument`` without datagrams (the peer did not agree them) or for a
    ///   datagram above ``maximumDatagramSize``; ``WAError/Code/connectionTerminated`` once the connection
    ///   ended.
    public func send(datagram: [UInt8]) throws(WAError) {
        guard let datagramChannel else {
            throw WAError(.invalidArgument, message: "this connection has no datagrams (both ends must ask for them)")
        }
        guard !currentState.isFinal else {
            throw WAError(.connectionTerminated, message: "the connection ended; its datagrams with it")
        }
        try datagramChannel.send(datagram)
    }

    /// The peer's datagrams as they come, authenticated and without replays; at most
    /// ``WADatagramOptions/queueLimit`` wait (the oldest are dropped and counted). Ends when the connection
    /// ends; empty without datagrams. One consumer.
    public var receivedDatagrams: AsyncStream<[UInt8]> {
        datagramChannel?.received ?? AsyncStream { $0.finish() }
    }

    /// The datagrams' counts so far (all zero without datagrams).
    public var datagramStatistics: WADatagramStatistics { datagramChannel?.statistics ?? WADatagramStatistics() }
}
