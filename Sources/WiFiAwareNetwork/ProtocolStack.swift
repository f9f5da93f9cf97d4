/// A protocol of a connection's stack (Apple's `NetworkProtocolOptions`): `TCP()`, `TLS()`, `UDP()`,
/// `QUIC(alpn:)`, or a message protocol over a stream (`TLV`, `Coder`). Built with ``ProtocolStackBuilder``:
///
/// ```swift
/// NetworkConnection(to: endpoint) { TLV { TLS { TCP() } } }
/// ```
public protocol NetworkProtocolOptions: Sendable {}

/// A protocol that carries a byte stream (`TCP`, `TLS`): a message protocol can run over it.
public protocol StreamProtocol: NetworkProtocolOptions {}

/// A protocol that carries whole messages (`TLV`, `Coder`, `UDP`).
public protocol MessageProtocol: NetworkProtocolOptions {}

/// Builds a protocol stack from the top protocol, whose own builder names the one below.
@resultBuilder
public enum ProtocolStackBuilder<Protocol: NetworkProtocolOptions> {
    /// The stack's top protocol.
    public static func buildBlock(_ top: Protocol) -> Protocol { top }
}

/// What a protocol stack asks of the WiFiAware connection underneath; each layer adds its part.
struct StackPlan: Sendable {
    var transport: WAConnectionTransport = .plain
    var identityFile: String? = nil
    var trust: WAConnectionTrust? = nil
    var datagrams = false
    var framing: MessageFraming? = nil

    /// The parameters of the WiFiAware connection: always a byte stream (this layer frames messages itself,
    /// as Network framework does), over a data path protected by `security`.
    func parameters(security: WADataPathSecurity) -> WAConnectionParameters {
        var parameters = WAConnectionParameters(dataPathSecurity: security)
        parameters.transport = transport
        parameters.identityFile = identityFile
        if let trust { parameters.trust = trust }
        parameters.mode = .byteStream
        if datagrams { parameters.datagrams = WADatagramOptions() }
        return parameters
    }
}

/// A protocol this layer knows how to run: it adds itself to the plan.
protocol StackLayer: NetworkProtocolOptions {
    func apply(to plan: inout StackPlan) throws(NWError)
}

extension NetworkProtocolOptions {
    /// The plan of the stack topped by this protocol.
    func plan() throws(NWError) -> StackPlan {
        guard let layer = self as? any StackLayer else {
            throw NWError(.unsupported, message: "\(Self.self) is not a protocol this layer can run")
        }
        var plan = StackPlan()
        try layer.apply(to: &plan)
        return plan
    }
}

/// TCP between the two NAN data interfaces, without TLS (Apple's `TCP()`): a byte stream, no
/// authentication and no encryption above the data path's own.
public struct TCP: StreamProtocol, StackLayer {
    /// TCP.
    public init() {}

    func apply(to plan: inout StackPlan) throws(NWError) { plan.transport = .plain }
}

/// TLS 1.3 with mutual authentication over TCP (Apple's `TLS()` or `TLS { TCP() }`): each side presents its
/// identity's certificate and checks the peer's (by default: the certificate pinned to its paired device).
public struct TLS: StreamProtocol, StackLayer {
    /// This device's identity: the file of its key and self-signed certificate.
    public struct LocalIdentity: Hashable, Sendable {
        let file: String

        /// The PEM file at `path` (key and certificate, 0600), made on first use.
        public static func file(_ path: String) -> LocalIdentity { LocalIdentity(file: path) }
    }

    private var identity: LocalIdentity?
    private var trust: WAConnectionTrust?

    /// TLS over TCP.
    public init() {}

    /// TLS over the stream below (TCP: the only one it runs over).
    public init(@ProtocolStackBuilder<TCP> _ below: () -> TCP) { _ = below() }

    /// TLS presenting `identity` (Apple's `TLS().localIdentity(...)`); without it, the identity kept next to
    /// the paired-device store (`tls-identity.pem`).
    public func localIdentity(_ identity: LocalIdentity) -> TLS {
        var copy = self
        copy.identity = identity
        return copy
    }

    /// TLS trusting the peer's certificate by `trust` instead of the default (the paired device's pin).
    public func peerTrust(_ trust: WAConnectionTrust) -> TLS {
        var copy = self
        copy.trust = trust
        return copy
    }

    func apply(to plan: inout StackPlan) throws(NWError) {
        plan.transport = .tls
        plan.identityFile = identity?.file
        plan.trust = trust
    }
}

/// Datagrams to the peer (Apple's `UDP()`): best effort, each one whole or not at all, protected with keys
/// from a TLS connection set up beside them (which carries nothing else). See docs/datagrams.md.
public struct UDP: MessageProtocol, StackLayer {
    /// What comes with a received datagram (nothing yet beyond its bytes).
    public struct Metadata: Hashable, Sendable {}

    /// Datagrams.
    public init() {}

    func apply(to plan: inout StackPlan) throws(NWError) {
        plan.transport = .tls
        plan.datagrams = true
    }
}

/// QUIC with these ALPN protocols (Apple's `QUIC(alpn:)`): mutual authentication with the same identities
/// and trust as `TLS()`, the connection's bytes (`send`, `receive`) on its first stream, more streams
/// (``NetworkConnection/openStream()``, ``NetworkConnection/inboundStreams``) and RFC 9221 datagrams
/// (``NetworkConnection/send(datagram:)``, ``NetworkConnection/receiveDatagram()``). A message protocol can
/// run over it (`TLV { QUIC(alpn: […]) }`). Both ends need an ALPN protocol in common.
public struct QUIC: StreamProtocol, StackLayer {
    /// The application protocols offered, in order.
    public let alpn: [String]
    private var identity: TLS.LocalIdentity?
    private var trust: WAConnectionTrust?

    /// QUIC offering `alpn`.
    public init(alpn: [String]) { self.alpn = alpn }

    /// QUIC presenting `identity` (as ``TLS/localIdentity(_:)``).
    public func localIdentity(_ identity: TLS.LocalIdentity) -> QUIC {
        var copy = self
        copy.identity = identity
        return copy
    }

    /// QUIC trusting the peer's certificate by `trust` (as ``TLS/peerTrust(_:)``).
    public func peerTrust(_ trust: WAConnectionTrust) -> QUIC {
        var copy = self
        copy.trust = trust
        return copy
    }

    func apply(to plan: inout StackPlan) throws(NWError) {
        guard (1...16).contains(alpn.count), alpn.allSatisfy({ (1...255).contains($0.utf8.count) }) else {
            throw NWError(
                .invalidArgument, message: "QUIC needs 1 to 16 ALPN protocols of 1 to 255 bytes each, not \(alpn)")
        }
        plan.transport = .quic(alpn: alpn)
        plan.identityFile = identity?.file
        plan.trust = trust
    }
}
