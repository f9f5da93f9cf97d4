import NANWire
@_spi(Tools) import WiFiAware

/// One line of `publish`/`subscribe`/`peers` output: text for people, or one JSON object with `--json`.
struct DiscoveryRecord: Codable, Equatable, Sendable {
    /// started, discovered, replied, message, sent, terminated, peer.
    var event: String
    /// The service name.
    var service: String?
    /// Our instance ID.
    var localInstance: Int?
    /// Our NMI address (on `started`).
    var address: String?
    /// The adapter (on `started`).
    var phy: String?
    /// How discovery runs (on `started`): `nan` (synchronized, in a cluster) or `usd` (unsynchronized).
    var transport: String?
    /// The peer's NMI address.
    var peer: String?
    /// The peer's instance ID.
    var peerInstance: Int?
    /// The paired device's name, when the peer is paired.
    var device: String?
    /// Service info or message, as text when it is printable UTF-8.
    var info: String?
    /// The same bytes in hex.
    var infoHex: String?
    /// The peer offers a data path.
    var dataPath: Bool?
    /// Signal of the peer's last frame (dBm).
    var signal: Int?
    /// Frequency of the peer's last frame (MHz).
    var frequency: Int?
    /// Discovery windows the peer was heard in.
    var discoveryWindows: Int?
    /// Where `signal` and `frequency` came from (`discoveryFrames`; `waware peers` only).
    var statisticsSource: String?
    /// Delivery status of a follow-up we sent: acknowledged, not-acknowledged, handed-to-driver.
    var status: String?
    /// Why a session ended: user-request, ttl, error.
    var reason: String?
    /// Seconds since the session started.
    var elapsed: Double?
    /// Seconds since the Unix epoch when this happened (compare across processes).
    var time: Double?

    init(_ event: String) { self.event = event }

    /// Fills the peer fields from an endpoint the WiFiAware API reported.
    mutating func describe(_ endpoint: WAEndpoint) {
        peer = endpoint.address.description
        peerInstance = Int(endpoint.instanceID.rawValue)
        localInstance = Int(endpoint.localInstanceID.rawValue)
        device = endpoint.device?.displayName
        setInfo(endpoint.serviceInfo)
        dataPath = endpoint.offersDataPath
        describe(endpoint.performance)
    }

    /// Fills the radio facts from a performance report.
    mutating func describe(_ report: WAPerformanceReport) {
        signal = report.signalStrength
        frequency = report.frequency
        discoveryWindows = report.discoveryWindowsHeard
    }

    /// Sets `info` (if printable) and `infoHex`.
    mutating func setInfo(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        infoHex = Hex.string(bytes)
        if let text = String(validating: bytes, as: UTF8.self),
            text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0 != "\u{7f}" })
        {
            info = text
        }
    }

    /// The human-readable line.
    var text: String {
        var parts = [event]
        if let service { parts.append(service) }
        if let phy { parts.append("on \(phy)") }
        if let transport { parts.append("via \(transport)") }
        if let address { parts.append("nmi \(address)") }
        if let localInstance { parts.append("instance \(localInstance)") }
        // A `peer` record (waware peers) already starts with the word.
        if let peer { parts.append(event == "peer" ? peer : "peer \(peer)") }
        if let peerInstance { parts.append("peer-instance \(peerInstance)") }
        if let device { parts.append("device \"\(TerminalText.escaped(device))\"") }
        if let info {
            parts.append("info \"\(TerminalText.escaped(info))\"")
        } else if let infoHex {
            parts.append("info-hex \(infoHex)")
        }
        if let dataPath, dataPath { parts.append("data-path") }
        if let signal { parts.append("signal \(signal) dBm") }
        if let frequency { parts.append("\(frequency) MHz") }
        if let discoveryWindows { parts.append("heard in \(discoveryWindows) DW") }
        if let status { parts.append(status) }
        if let reason { parts.append("reason \(reason)") }
        if let elapsed { parts.append("after \(String(format3: elapsed)) s") }
        return parts.joined(separator: " ")
    }

    /// Writes the record as text or JSON.
    func write(json: Bool, to output: Output) throws {
        if json { try output.writeJSON(self) } else { output.write(text) }
    }
}

/// What every record of one publish or subscribe shares: the service, our instance once started, and when
/// the session began (for `elapsed`).
struct SessionRecords: Sendable {
    var service: String
    var instance: Int?
    var start: ContinuousClock.Instant

    /// A record of `event` stamped with the service, our instance and the times.
    func record(_ event: String) -> DiscoveryRecord {
        var r = DiscoveryRecord(event)
        r.service = service
        r.localInstance = instance
        r.elapsed = ClusterSession.seconds(ContinuousClock.now - start)
        r.time = DiscoveryRun.wallClock()
        return r
    }

    /// A record of `event` about a peer's `endpoint` (`replied`, `discovered`, `lost`).
    func record(_ event: String, _ endpoint: WAEndpoint) -> DiscoveryRecord {
        var r = record(event)
        r.describe(endpoint)
        return r
    }

    /// `terminated`, saying why.
    func terminated(_ reason: String) -> DiscoveryRecord {
        var r = record("terminated")
        r.reason = reason
        return r
    }

    /// `started`: the session is on the radio as instance `id`, on `phy` with our NAN management `address`;
    /// the records after it carry `id`.
    mutating func started(
        _ id: InstanceID, phy: String, address: MACAddress, transport: WATransport = .synchronized
    ) -> DiscoveryRecord {
        instance = Int(id.rawValue)
        var r = record("started")
        r.phy = phy
        r.transport = transport == .unsynchronized ? "usd" : "nan"
        r.address = address.description
        return r
    }

    /// `message`: a follow-up received from a peer, with the radio facts of its frame.
    func message(_ message: WAMessage) -> DiscoveryRecord {
        var r = record("message")
        r.peer = message.endpoint.address.description
        r.peerInstance = Int(message.endpoint.instanceID.rawValue)
        r.device = message.endpoint.device?.displayName
        r.setInfo(message.payload)
        r.describe(message.endpoint.performance)
        return r
    }

    /// The one line on standard error (after `waware: `) when the radio's events were lost: the session goes
    /// on, so it is a notice, not a record on standard output.
    func eventsLostNotice(droppedEvents: Int?) -> String {
        let count = droppedEvents.map { "\($0) events dropped" } ?? "the kernel did not say how many were dropped"
        return "warning: \(service): radio events were lost (netlink overrun, \(count)); resynchronised with the "
            + "radio and still running, but discoveries or messages that arrived meanwhile may be missing"
    }

    /// Prints a `verified` / `not-paired` line for each verification `system` reports from now on, until
    /// the returned task is cancelled.
    func printVerifications(of system: WASystem, json: Bool, to output: Output) -> Task<Void, Never> {
        let verifications = system.verifications()
        return Task { for await event in verifications { try? verification(event).write(json: json, to: output) } }
    }

    /// `verified` (a paired device proved its pairing key, `device` names it) or `not-paired` (the peer
    /// failed verification; `reason` says why).
    func verification(_ event: WAVerificationEvent) -> DiscoveryRecord {
        switch event {
        case .verified(let device, let address):
            var r = record("verified")
            r.peer = address.description
            r.device = device.displayName
            return r
        case .failed(let address, let reason):
            var r = record("not-paired")
            r.peer = address.description
            r.reason = "failed verification: \(reason)"
            return r
        }
    }

    /// `sent`: a follow-up we sent to `endpoint` and its delivery status.
    func sent(_ payload: [UInt8], to endpoint: WAEndpoint, status: WADeliveryStatus) -> DiscoveryRecord {
        var r = record("sent")
        r.peer = endpoint.address.description
        r.peerInstance = Int(endpoint.instanceID.rawValue)
        r.setInfo(payload)
        r.status = status.description
        return r
    }
}

extension String {
    /// A number with three decimals, without Foundation's format strings.
    init(format3 value: Double) {
        let thousandths = Int((value * 1000).rounded())
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = abs(thousandths)
        let fraction = String(magnitude % 1000)
        self = sign + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
