import WiFiAware

/// The datagram options of `waware listen` and `waware connect` (best-effort UDP beside the connection).
enum DatagramArguments {
    static let datagramsFlag = FlagKey(
        "datagrams",
        help:
            "Agree best-effort datagrams (UDP) beside the connection (both sides must say so); print the ones received."
    )
    static let datagramOption = OptionKey(
        "datagram", value: "text", help: "Send this text as a best-effort datagram (implies --datagrams).")
    static let datagramCountOption = OptionKey(
        "datagram-count", value: "n", help: "Send --datagram this many times, 100 ms apart, numbered (default 1).")
    static let waitDatagramsOption = OptionKey(
        "wait-datagrams", value: "n",
        help: "Before the messages, wait up to 15 s until this many datagrams came from the peer.")

    /// The options `connect` adds.
    static let connect: [ArgumentSpec] = [datagramOption.spec, datagramCountOption.spec, waitDatagramsOption.spec]

    /// What `connect` does with datagrams.
    struct Plan: Sendable {
        var text: String?
        var count = 1
        var wait = 0
    }

    static func plan(from parsed: ParsedValues, parameters: inout WAConnectionParameters) throws -> Plan {
        var plan = Plan()
        plan.text = parsed.option(datagramOption)
        plan.count =
            try parsed.option(
                datagramCountOption, expected: "a number from 1 to 100000", ArgumentValues.integer(in: 1...100_000))
            ?? 1
        plan.wait =
            try parsed.option(
                waitDatagramsOption, expected: "a number from 0 to 100000", ArgumentValues.integer(in: 0...100_000))
            ?? 0
        if plan.text != nil || plan.wait > 0 { parameters.datagrams = parameters.datagrams ?? WADatagramOptions() }
        if let text = plan.text, let maximum = parameters.datagrams?.maximumSize, text.utf8.count + 8 > maximum {
            throw ValidationError("--datagram takes at most \(maximum - 8) bytes of text")
        }
        return plan
    }
}

/// A connection's datagram counts in a `datagram-stats` line (`--json`: an object).
struct DatagramCountsRecord: Codable, Sendable {
    var sent: Int
    var sendFailed: Int
    var received: Int
    var dropped: Int
    var rejected: Int

    init(_ statistics: WADatagramStatistics) {
        (sent, sendFailed, received) = (statistics.sent, statistics.sendFailed, statistics.received)
        (dropped, rejected) = (statistics.droppedOldest, statistics.rejected)
    }

    var text: String {
        "sent \(sent) (\(sendFailed) failed) received \(received) dropped \(dropped) rejected \(rejected)"
    }
}

/// Printing, echoing and sending datagrams for `listen` and `connect`.
enum DatagramOutput {
    /// Prints every datagram the connection receives (and with `echo` sends it back) until the connection
    /// ends. `connect` prints its text lines on standard error (standard output carries the messages).
    static func printReceived(
        on connection: WAConnection, service: String, since start: ContinuousClock.Instant, json: Bool,
        output: Output, echo: Bool, textToStandardError: Bool
    ) async {
        for await datagram in connection.receivedDatagrams {
            var r = ConnectionRecord("datagram", service: service, since: start)
            r.peerID = connection.remotePeer.description
            r.text = ConnectionRecord.messageText(datagram)
            r.bytes = datagram.count
            try? r.write(json: json, to: output, textToStandardError: textToStandardError)
            if echo { try? connection.send(datagram: datagram) }
        }
    }

    /// Sends the plan's datagrams, 100 ms apart (numbered `TEXT 1`, `TEXT 2`, … when more than one), then
    /// waits for the plan's number of datagrams from the peer, at most 15 s.
    static func run(_ plan: DatagramArguments.Plan, on connection: WAConnection) async throws {
        guard plan.text != nil || plan.wait > 0 else { return }
        guard connection.hasDatagrams else {
            throw WAError(
                .connectionFailed, message: "the listener did not agree datagrams (start it with --datagrams)")
        }
        if let text = plan.text {
            for i in 1...plan.count {
                try connection.send(datagram: Array((plan.count == 1 ? text : "\(text) \(i)").utf8))
                if i < plan.count { try await Task.sleep(for: .milliseconds(100)) }
            }
        }
        let deadline = ContinuousClock.now + .seconds(15)
        while connection.datagramStatistics.received < plan.wait && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The `datagram-stats` line of a connection that had datagrams.
    static func statistics(
        of connection: WAConnection, service: String, since start: ContinuousClock.Instant
    ) -> ConnectionRecord? {
        guard connection.hasDatagrams else { return nil }
        var r = ConnectionRecord("datagram-stats", service: service, since: start)
        r.peerID = connection.remotePeer.description
        r.datagrams = DatagramCountsRecord(connection.datagramStatistics)
        r.transport = connection.datagramProtection
        return r
    }
}
