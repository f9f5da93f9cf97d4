import FoundationEssentials
import NANWire
@_spi(Tools) import WiFiAware

/// The options `waware listen` and `waware connect` share: the service, the adapter and devices, the
/// data path's protection, the transport.
enum ConnectionArguments {
    static let servicePositional = PositionalKey("service", help: "The service name, e.g. _chat._tcp.")
    static let plainFlag = FlagKey(
        "plain", help: "Plain TCP instead of mutual TLS: the peer is not authenticated (announced on standard error).")
    static let tofuFlag = FlagKey(
        "tofu",
        help:
            "Trust on first use: accept the certificate of an unpaired peer (or of a paired device without a pinned certificate) as presented."
    )
    static let identityOption = OptionKey(
        "identity", value: "path",
        help:
            "This device's TLS identity file (key and certificate, PEM, 0600), made on first use (default: tls-identity.pem next to devices.json)."
    )
    static let byteStreamFlag = FlagKey(
        "byte-stream", help: "A raw byte stream instead of framed messages (both sides must say so).")

    /// The options both commands accept.
    static let common: [ArgumentSpec] =
        [
            servicePositional.spec, OptionKey.adapter.spec, DiscoveryArguments.pairedFlag.spec,
            DiscoveryArguments.deviceOption.spec, plainFlag.spec, tofuFlag.spec, identityOption.spec,
            byteStreamFlag.spec, DatagramArguments.datagramsFlag.spec, .json,
        ] + DataPathArguments.security

    struct Values: Sendable {
        var service: WAServiceName
        var adapter: String?
        var devices: DiscoveryArguments.DeviceChoice
        var parameters: WAConnectionParameters
        var json: Bool
    }

    static func values(from parsed: ParsedValues) throws -> Values {
        guard let name = parsed.positional(servicePositional) else {
            throw ValidationError("give the service name, e.g. _chat._tcp")
        }
        let service: WAServiceName
        do { service = try WAServiceName(name) } catch { throw ValidationError("\(error)") }
        let security = try DataPathArguments.security(from: parsed, required: true, flag: "data path of a connection")
        var parameters = WAConnectionParameters(dataPathSecurity: security ?? .open)
        if parsed.flag(plainFlag) {
            if parsed.flag(tofuFlag) || parsed.option(identityOption) != nil {
                throw ValidationError("--tofu and --identity go with TLS, not --plain")
            }
            parameters.transport = .plain
        }
        if parsed.flag(tofuFlag) { parameters.trust = .pairedDevicesOrFirstUse }
        parameters.identityFile = parsed.option(identityOption)
        if parsed.flag(byteStreamFlag) { parameters.mode = .byteStream }
        if parsed.flag(DatagramArguments.datagramsFlag) { parameters.datagrams = WADatagramOptions() }
        var devices = DiscoveryArguments.DeviceChoice.anyDevice
        if parsed.flag(DiscoveryArguments.pairedFlag) { devices = .allPaired }
        if let list = parsed.option(DiscoveryArguments.deviceOption) {
            devices = .named(
                list.split(separator: ",").map {
                    String(String($0).drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
                })
        }
        return Values(
            service: service, adapter: parsed.option(OptionKey.adapter), devices: devices,
            parameters: parameters, json: parsed.flag(.json))
    }

    /// This device's certificate fingerprint for TLS connections (made on first use); nil for plain TCP.
    static func localFingerprint(_ parameters: WAConnectionParameters, store: WADeviceStore) throws -> String? {
        guard !parameters.transport.isPlain else { return nil }
        return try WAPeerCertificate.local(for: store, identityFile: parameters.identityFile).fingerprint.description
    }

    /// The line that announces plain TCP.
    static func announce(_ parameters: WAConnectionParameters, output: Output) {
        if parameters.transport.isPlain {
            output.fail(
                "warning: plain TCP (--plain): the peer is not authenticated and only the data path protects the bytes")
        }
    }
}

/// One line of `listen` / `connect` output (`--json`: these fields, sorted).
struct ConnectionRecord: Codable, Sendable {
    var event: String
    var service: String
    var seconds: Double
    var port: Int?
    var peer: String?
    var peerID: String?
    /// `in` (accepted) or `out` (made by this side), on `connected` lines of `listen`.
    var direction: String?
    var device: String?
    var interface: String?
    var localAddress: String?
    var peerAddress: String?
    var transport: String?
    var trust: String?
    var peerFingerprint: String?
    var fingerprint: String?
    var state: String?
    var text: String?
    var bytes: Int?
    var file: String?
    var size: UInt64?
    var sha256: String?
    var reason: String?
    var datagrams: DatagramCountsRecord?

    init(_ event: String, service: String, since start: ContinuousClock.Instant) {
        self.event = event
        self.service = service
        let elapsed = ContinuousClock.now - start
        seconds = elapsed.inSeconds
    }

    /// A message as text for a line: UTF-8, without its trailing newlines.
    static func messageText(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }

    mutating func describe(_ connection: WAConnection) {
        peer = connection.peer.description
        peerID = connection.remotePeer.description
        device = connection.device?.displayName
        interface = connection.dataPath.interfaceName
        localAddress = connection.dataPath.localAddress.description
        peerAddress = connection.dataPath.peerAddress.description
        transport = connection.transportDescription
        trust = connection.trustBasis?.description
        peerFingerprint = connection.peerCertificate?.fingerprint.description
    }

    /// The text form: the event, then the fields that are set.
    var text_: String {
        var parts = [event, service]
        if let peerID { parts.append("peer-id \(peerID)") }
        if let peer { parts.append("peer \(peer)") }
        if let device { parts.append("device \"\(device)\"") }
        if let direction { parts.append("direction \(direction)") }
        if let port { parts.append("port \(port)") }
        if let interface, let localAddress, let peerAddress {
            parts.append("over \(interface) \(localAddress) -> \(peerAddress)")
        }
        if let transport { parts.append("(\(transport))") }
        if let trust { parts.append("trust \(trust)") }
        if let peerFingerprint { parts.append("peer-certificate \(peerFingerprint)") }
        if let fingerprint { parts.append("certificate \(fingerprint)") }
        if let state { parts.append("state \(state)") }
        if let text { parts.append("\"\(text)\"") }
        if let bytes { parts.append("\(bytes) bytes") }
        if let file { parts.append("file \(file)") }
        if let size { parts.append("size \(size)") }
        if let sha256 { parts.append("sha256 \(sha256)") }
        if let reason { parts.append("reason \(reason)") }
        if let datagrams { parts.append("datagrams \(datagrams.text)") }
        parts.append("after \(String(format3: seconds)) s")
        return parts.joined(separator: " ")
    }

    /// The text form as a line for standard error, escaped as ``Output`` escapes standard output: the peer's
    /// words (a message, a reason) cannot drive the terminal.
    var standardErrorLine: String { TerminalText.escapedLines(text_) + "\n" }

    /// Bytes the peer sent (a message, a piece of a byte stream) as text for a terminal: UTF-8, with
    /// ``TerminalText/escapedLines(_:)`` as every other line of output (line breaks and tabs kept).
    static func peerText(_ bytes: [UInt8]) -> String {
        TerminalText.escapedLines(String(decoding: bytes, as: UTF8.self))
    }

    func write(json: Bool, to output: Output, textToStandardError: Bool = false) throws {
        if json { return try output.writeJSON(self) }
        if textToStandardError {
            Output.emit(standardErrorLine, to: .standardError)
        } else {
            output.write(text_)
        }
    }
}

extension ConnectionArguments {
    /// Runs a listen/connect body, giving connection failures their own exit codes (20, 21); other
    /// commands keep status 1 for a failed data path.
    static func withConnectionExitCodes(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as WAError where error.code == .connectionFailed {
            throw CommandFailure(error.message, code: .connectionFailed)
        } catch let error as WAError where error.code == .connectionTerminated {
            throw CommandFailure(error.message, code: .connectionTerminated)
        }
    }
}
