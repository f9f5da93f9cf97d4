import NANWire
@_spi(Tools) import WiFiAware

/// The data-path options of `waware publish` and `waware subscribe`: how the data path is protected.
enum DataPathArguments {
    static let openFlag = FlagKey(
        "open", help: "An open (unencrypted) data path: anyone in range can read it. Must be asked for.")
    static let passphraseOption = OptionKey(
        "passphrase", value: "text",
        help:
            "Secure data path (NCS-SK) with this passphrase, 1 to 63 bytes (both sides must use the same); visible to other local users, prefer --passphrase-file or WAWARE_PASSPHRASE."
    )
    static let passphraseFileOption = OptionKey(
        "passphrase-file", value: "path",
        help: "As --passphrase, read from this file (one line; also WAWARE_PASSPHRASE).")
    static let pmkOption = OptionKey(
        "pmk", value: "hex",
        help:
            "Secure data path (NCS-SK) with this 32-byte PMK (64 hex digits); visible to other local users, prefer --pmk-file or WAWARE_PMK."
    )
    static let pmkFileOption = OptionKey(
        "pmk-file", value: "path",
        help: "As --pmk, read from this file (64 hex digits, surrounding whitespace ignored; also WAWARE_PMK).")
    static let cipherOption = OptionKey(
        "cipher-suite", value: "128|256",
        help: "NCS-SK-128 (CCMP-128) or NCS-SK-256 (GCMP-256); default: request 128, accept both.")
    static let acceptFlag = FlagKey(
        "accept-data-paths",
        help:
            "Accept data-path requests (implies --data-path); with a passphrase or PMK (--passphrase-file, --pmk-file, WAWARE_PASSPHRASE, WAWARE_PMK) or --open, or by default from paired devices keyed by the pairing (NCS-PK-PASN-128 or -256, as paired)."
    )
    static let requestFlag = FlagKey(
        "data-path",
        help:
            "Request a data path to the first publisher found and keep it until Ctrl-C, --timeout or the peer ends it; with a passphrase or PMK (--passphrase-file, --pmk-file, WAWARE_PASSPHRASE, WAWARE_PMK) or --open, or by default to a paired device keyed by the pairing (NCS-PK-PASN-128 or -256, as paired; verified first)."
    )

    /// `--open`, `--passphrase`, `--passphrase-file`, `--pmk`, `--pmk-file`, `--cipher-suite`.
    static let security: [ArgumentSpec] = [
        openFlag.spec, passphraseOption.spec, passphraseFileOption.spec, pmkOption.spec,
        pmkFileOption.spec, cipherOption.spec,
    ]
    /// The environment variables that give a passphrase or PMK when no option does.
    static let passphraseVariable = "WAWARE_PASSPHRASE"
    static let pmkVariable = "WAWARE_PMK"
    /// Below this many bytes a passphrase is easy to guess offline from one captured handshake.
    static let shortPassphrase = 8
    static let idleTimeoutOption = OptionKey(
        "idle-timeout", value: "seconds",
        help:
            "End a data path after this many seconds with no packet either way ('data-path-down ... reason idle'); default never."
    )
    /// Every data-path option: the security ones and `--idle-timeout`.
    static let all: [ArgumentSpec] = security + [idleTimeoutOption.spec]

    /// `--idle-timeout`, which goes with a data path (`flag`).
    static func idleTimeout(from parsed: ParsedValues, required: Bool, flag: String) throws -> Duration? {
        let seconds = try parsed.option(
            idleTimeoutOption, expected: "a number of seconds from 1 to 86400, such as 30",
            ArgumentValues.seconds(in: 1...86400))
        guard let seconds else { return nil }
        guard required else { throw ValidationError("--idle-timeout goes with --\(flag)") }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// A passphrase or PMK and where it came from (an option's or variable's name, for messages).
    private enum Credential {
        case passphrase(String, from: String)
        case pmk(String, from: String)
    }

    /// Whether the command line or the environment gives a credential (`--open`, a passphrase or a PMK).
    static func givesCredential(_ parsed: ParsedValues, secrets: SecretInput = .current) -> Bool {
        parsed.flag(openFlag)
            || [passphraseOption, passphraseFileOption, pmkOption, pmkFileOption].contains { parsed.option($0) != nil }
            || secrets.variable(passphraseVariable) != nil || secrets.variable(pmkVariable) != nil
    }

    /// The security chosen; `required` says whether a data path was asked for at all. A passphrase or PMK
    /// comes from `--passphrase-file`/`--pmk-file`, then `WAWARE_PASSPHRASE`/`WAWARE_PMK` when no option
    /// gives one, or from `--passphrase`/`--pmk` (which warn: other local users can read the command line).
    static func security(
        from parsed: ParsedValues, required: Bool, flag: String, secrets: SecretInput = .current
    ) throws -> WADataPathSecurity? {
        let open = parsed.flag(openFlag)
        let given = [passphraseOption, passphraseFileOption, pmkOption, pmkFileOption].filter {
            parsed.option($0) != nil
        }
        let chosen = given.count + (open ? 1 : 0)
        let cipher = parsed.option(cipherOption)
        guard required else {
            if chosen > 0 || cipher != nil {
                throw ValidationError(
                    "--open, --passphrase, --passphrase-file, --pmk, --pmk-file and --cipher-suite go with --\(flag)")
            }
            return nil
        }
        guard chosen <= 1 else {
            throw ValidationError("choose one of --open, --passphrase, --passphrase-file, --pmk and --pmk-file")
        }
        if open {
            if cipher != nil { throw ValidationError("--cipher-suite goes with --passphrase or --pmk, not --open") }
            return .open
        }
        let credential: Credential
        if let text = parsed.option(passphraseOption) {
            secrets.warnCommandLine("--passphrase", instead: "--passphrase-file or \(passphraseVariable)")
            credential = .passphrase(text, from: "--passphrase")
        } else if let path = parsed.option(passphraseFileOption) {
            credential = .passphrase(
                try secrets.textFile(path, for: "--passphrase-file"), from: "the passphrase in \(path)")
        } else if let text = parsed.option(pmkOption) {
            secrets.warnCommandLine("--pmk", instead: "--pmk-file or \(pmkVariable)")
            credential = .pmk(text, from: "--pmk")
        } else if let path = parsed.option(pmkFileOption) {
            credential = .pmk(
                String(decoding: try secrets.file(path, for: "--pmk-file"), as: UTF8.self), from: "the PMK in \(path)")
        } else {
            let passphrase = secrets.variable(passphraseVariable), pmk = secrets.variable(pmkVariable)
            if passphrase != nil && pmk != nil {
                throw ValidationError("set \(passphraseVariable) or \(pmkVariable), not both")
            }
            if let passphrase {
                credential = .passphrase(passphrase, from: passphraseVariable)
            } else if let pmk {
                credential = .pmk(pmk, from: pmkVariable)
            } else {
                // Between paired devices the default: NCS-PK-PASN with the pairing key.
                if cipher != nil { throw ValidationError("--cipher-suite goes with --passphrase or --pmk") }
                return .pairing
            }
        }
        let suites = try cipherSuites(cipher)
        switch credential {
        case .passphrase(let passphrase, let source):
            let length = passphrase.utf8.count
            guard (1...63).contains(length) else {
                throw ValidationError("\(source) must be 1 to 63 bytes, not \(length)")
            }
            if length < shortPassphrase {
                secrets.warn(
                    "the passphrase is \(length) bytes; use \(shortPassphrase) or more, since one captured handshake lets anyone guess it offline"
                )
            }
            return .passphrase(passphrase, cipherSuites: suites)
        case .pmk(let text, let source):
            // A file or variable may end in a line break: whitespace around the digits is dropped.
            let digits = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            guard let bytes = Hex.bytes(String(digits)), bytes.count == 32 else {
                throw ValidationError("\(source) must be 64 hex digits (32 bytes)")
            }
            return .pmk(bytes, cipherSuites: suites)
        }
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

    /// The warning printed when an open data path comes up.
    static let openWarning = "warning: the data path is open (unencrypted): anyone in range can read its traffic"
}

/// One line about a data path: `data-path-requested`, `data-path-up`, `data-path-viability`, `data-path-down`.
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
    /// Whether the data path can carry packets now (`data-path-viability`: false while its peer misses
    /// keepalives, true when it answers again).
    var viable: Bool?
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
        localAddress = c.localAddress.description
        peerAddress = c.peerAddress.description
        peerInterfaceAddress = c.peerInterfaceAddress.description
        cipherSuite = c.cipherSuite?.description ?? "open"
    }

    /// The record for a data-path event.
    static func from(_ event: WADataPathEvent, service: String?, since start: ContinuousClock.Instant) -> DataPathRecord
    {
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
        case .viability(let peer, let ndp, let isViable):
            var r = DataPathRecord("data-path-viability", service: service, since: start)
            r.peer = peer.description
            r.ndp = Int(ndp)
            r.viable = isViable
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
        if let viable { parts.append(viable ? "viable" : "not-viable") }
        if let elapsed { parts.append("after \(String(format3: elapsed)) s") }
        return parts.joined(separator: " ")
    }

    /// Writes the record as text or JSON; an open data path coming up also warns on standard error.
    func write(json: Bool, to output: Output) throws {
        if json { try output.writeJSON(self) } else { output.write(text) }
        if event == "data-path-up" && cipherSuite == "open" { output.fail(DataPathArguments.openWarning) }
    }
}
