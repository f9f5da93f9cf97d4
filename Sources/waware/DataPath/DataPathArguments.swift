import NANWire
import WiFiAware

/// The data-path options of `waware publish` and `waware subscribe`: how the data path is protected.
enum DataPathArguments {
    static let openFlag = FlagKey("open", help: "An open (unencrypted) data path: anyone in range can read it. Must be asked for.")
    static let passphraseOption = OptionKey("passphrase", value: "text", help: "Secure data path (NCS-SK) with this passphrase, 1 to 63 bytes (both sides must use the same).")
    static let pmkOption = OptionKey("pmk", value: "hex", help: "Secure data path (NCS-SK) with this 32-byte PMK (64 hex digits).")
    static let cipherOption = OptionKey("cipher-suite", value: "128|256",
                                        help: "NCS-SK-128 (CCMP-128) or NCS-SK-256 (GCMP-256); default: request 128, accept both.")
    static let acceptFlag = FlagKey("accept-data-paths", help: "Accept data-path requests (implies --data-path); with --passphrase, --pmk or --open, or by default from paired devices keyed by the pairing (NCS-PK-PASN-128 or -256, as paired).")
    static let requestFlag = FlagKey("data-path", help: "Request a data path to the first publisher found and keep it until Ctrl-C, --timeout or the peer ends it; with --passphrase, --pmk or --open, or by default to a paired device keyed by the pairing (NCS-PK-PASN-128 or -256, as paired; verified first).")

    /// `--open`, `--passphrase`, `--pmk`.
    static let security: [ArgumentSpec] = [openFlag.spec, passphraseOption.spec, pmkOption.spec, cipherOption.spec]
    static let idleTimeoutOption = OptionKey("idle-timeout", value: "seconds",
                                             help: "End a data path after this many seconds with no packet either way ('data-path-down ... reason idle'); default never.")
    /// Every data-path option: the security ones and `--idle-timeout`.
    static let all: [ArgumentSpec] = security + [idleTimeoutOption.spec]

    /// `--idle-timeout`, which goes with a data path (`flag`).
    static func idleTimeout(from parsed: ParsedValues, required: Bool, flag: String) throws -> Duration? {
        let seconds = try parsed.option(idleTimeoutOption, expected: "a number of seconds from 1 to 86400, such as 30") { text in
            Double(text).flatMap { $0 >= 1 && $0 <= 86400 ? $0 : nil }
        }
        guard let seconds else { return nil }
        guard required else { throw ValidationError("--idle-timeout goes with --\(flag)") }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// The security chosen; `required` says whether a data path was asked for at all.
    static func security(from parsed: ParsedValues, required: Bool, flag: String) throws -> WADataPathSecurity? {
        let open = parsed.flag(openFlag)
        let passphrase = parsed.option(passphraseOption)
        let pmk = parsed.option(pmkOption)
        let chosen = [open, passphrase != nil, pmk != nil].filter { $0 }.count
        let cipher = parsed.option(cipherOption)
        guard required else {
            if chosen > 0 || cipher != nil { throw ValidationError("--open, --passphrase, --pmk and --cipher-suite go with --\(flag)") }
            return nil
        }
        guard chosen <= 1 else { throw ValidationError("choose one of --open, --passphrase and --pmk") }
        if chosen == 0 {
            // Between paired devices the default: NCS-PK-PASN with the pairing key.
            if cipher != nil { throw ValidationError("--cipher-suite goes with --passphrase or --pmk") }
            return .pairing
        }
        if open {
            if cipher != nil { throw ValidationError("--cipher-suite goes with --passphrase or --pmk, not --open") }
            return .open
        }
        let suites = try cipherSuites(cipher)
        if let passphrase {
            guard (1...63).contains(passphrase.utf8.count) else {
                throw ValidationError("--passphrase must be 1 to 63 bytes, not \(passphrase.utf8.count)")
            }
            return .passphrase(passphrase, cipherSuites: suites)
        }
        let text = pmk ?? ""
        let digits = Array(text.utf8)
        guard digits.count == 64, let bytes = hexBytes(digits) else { throw ValidationError("--pmk must be 64 hex digits (32 bytes)") }
        return .pmk(bytes, cipherSuites: suites)
    }

    /// `--cipher-suite`: `128`, `256`, `ncs-sk-128`, `ncs-sk-256` (any case); none: request 128, accept both.
    static func cipherSuites(_ text: String?) throws -> [WACipherSuite] {
        guard let text else { return [.ncsSK128, .ncsSK256] }
        switch text.lowercased() {
        case "128", "ncs-sk-128": return [.ncsSK128]
        case "256", "ncs-sk-256": return [.ncsSK256]
        default: throw ValidationError("--cipher-suite must be 128 or 256 (NCS-SK-128 or NCS-SK-256), not '\(text)'")
        }
    }

    private static func hexBytes(_ digits: [UInt8]) -> [UInt8]? {
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    /// The warning printed when an open data path comes up.
    static let openWarning = "warning: the data path is open (unencrypted): anyone in range can read its traffic"
}

/// One line about a data path: `data-path-requested`, `data-path-up`, `data-path-down`.
struct DataPathRecord: Codable, Equatable, Sendable {
    /// The event name.
    var event: String
    /// The service.
    var service: String?
    /// The peer's NMI address.
    var peer: String?
    /// The NDP ID.
    var ndp: Int?
    /// The local NAN data interface.
    var interface: String?
    /// Our IPv6 link-local address.
    var localAddress: String?
    /// The peer's IPv6 link-local address.
    var peerAddress: String?
    /// The peer's NDI address.
    var peerInterfaceAddress: String?
    /// `open`, `NCS-SK-128`, `NCS-SK-256`, `NCS-PK-PASN-128`.
    var cipherSuite: String?
    /// Why it ended.
    var reason: String?
    /// The NAN reason code.
    var reasonCode: Int?
    /// What failed locally (e.g. the kernel's error).
    var detail: String?
    /// Seconds since the session started.
    var elapsed: Double?
    /// Seconds since the Unix epoch.
    var time: Double?

    init(_ event: String, service: String?, since start: ContinuousClock.Instant) {
        self.event = event
        self.service = service
        elapsed = ClusterSession.seconds(ContinuousClock.now - start)
        time = DiscoveryRun.wallClock()
    }

    /// Fills the connection fields.
    mutating func describe(_ c: WADataPathConnection) {
        peer = c.peer.description
        ndp = Int(c.ndpID)
        interface = c.interfaceName
        localAddress = c.localAddress
        peerAddress = c.peerAddress
        peerInterfaceAddress = c.peerInterfaceAddress.description
        cipherSuite = c.cipherSuite
    }

    /// The record for a data-path event.
    static func from(_ event: WADataPathEvent, service: String?, since start: ContinuousClock.Instant) -> DataPathRecord {
        switch event {
        case .requested(let peer):
            var r = DataPathRecord("data-path-requested", service: service, since: start)
            r.peer = peer.description
            return r
        case .connected(let c):
            var r = DataPathRecord("data-path-up", service: service, since: start)
            r.describe(c)
            return r
        case .terminated(let peer, let ndp, let reason):
            var r = DataPathRecord("data-path-down", service: service, since: start)
            r.peer = peer.description
            r.ndp = Int(ndp)
            r.reason = reason.name
            if reason.reasonCode != 0 { r.reasonCode = Int(reason.reasonCode) }
            r.detail = reason.detail
            return r
        }
    }

    /// The human-readable line.
    var text: String {
        var parts = [event]
        if let service { parts.append(service) }
        if let peer { parts.append("peer \(peer)") }
        if let ndp { parts.append("ndp \(ndp)") }
        if let interface { parts.append("interface \(interface)") }
        if let localAddress { parts.append("local \(localAddress)") }
        if let peerAddress { parts.append("peer-address \(peerAddress)") }
        if let cipherSuite { parts.append("cipher \(cipherSuite)") }
        if let reason { parts.append("reason \(reason)") }
        if let reasonCode { parts.append("nan-reason \(reasonCode)") }
        if let detail { parts.append("(\(detail))") }
        if let elapsed { parts.append("after \(String(format3: elapsed)) s") }
        return parts.joined(separator: " ")
    }

    /// Writes the record as text or JSON; an open data path coming up also warns on standard error.
    func write(json: Bool, to output: Output) throws {
        if json { try output.writeJSON(self) } else { output.write(text) }
        if event == "data-path-up" && cipherSuite == "open" { output.fail(DataPathArguments.openWarning) }
    }
}
