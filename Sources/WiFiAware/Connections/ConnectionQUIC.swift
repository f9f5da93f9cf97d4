internal import NANCrypto
internal import Synchronization
internal import NANSystem
import NANWire

/// The QUIC side of setting up a connection (``WAConnectionTransport/quic(alpn:)``): the same identity and
/// trust as TLS over TCP (``ConnectionTLS``: the peer's certificate judged by ``WAConnectionTrust`` during
/// the handshake, a learned pin stored once it finished), the preface and messages on the connection's first
/// stream (the initiator opens it), more streams and RFC 9221 datagrams beside it.
///
/// The listener's side binds one ``QUICListener`` per data path, on the data interface's address and the
/// port its service info announces (the listener's TCP port number, as UDP); after each accepted client
/// it binds the next one on the same port (the accepted connection's socket keeps its client).
enum ConnectionQUIC {
    /// The QUIC configuration presenting `tls`'s identity, judging the peer with `trust`.
    static func configuration(
        _ tls: ConnectionTLS, trust: TLSTrust, alpn: [String], timeout: Duration
    ) -> QUICConfiguration {
        var configuration = QUICConfiguration(alpn: alpn, identity: tls.identity, trust: trust)
        configuration.handshakeTimeout = min(timeout, .seconds(10))
        return configuration
    }

    /// The initiator's side: QUIC from this side's address on the data interface to the listener's port,
    /// trying again while the address is not usable yet or the listener is not bound yet (reported as
    /// `waiting`), until `parameters.setupTimeout`.
    static func connect(
        to port: UInt16, over dataPath: WADataPathConnection, tls: ConnectionTLS, parameters: WAConnectionParameters,
        peer: MACAddress, device: WAPairedDevice?, onStateUpdate: (@Sendable (WAConnectionState) -> Void)?
    ) async throws(WAError) -> (QUICConnection, WAPeerCertificate, WAConnectionTrust.Basis) {
        let remote = LinkLocalEndpoint(address: dataPath.peerAddress, interface: dataPath.interfaceName, port: port)
        let local = LinkLocalEndpoint(address: dataPath.localAddress, interface: dataPath.interfaceName, port: 0)
        let deadline = ContinuousClock.now + parameters.setupTimeout
        var lastReason = ""
        while true {
            let (trust, decision) = tls.judge(peer: peer, device: device, dataPath: dataPath)
            let configuration = configuration(
                tls, trust: trust, alpn: parameters.transport.alpn, timeout: deadline - ContinuousClock.now)
            do throws(QUICError) {
                let connection = try await QUICConnection.connect(to: remote, from: local, configuration: configuration)
                let certificate = WAPeerCertificate(connection.peerCertificate)
                let basis = try settle(decision, tls: tls, certificate: certificate, device: device, connection)
                return (connection, certificate, basis)
            } catch {
                // Not yet reachable: the fresh data interface's address is still tentative (bind fails), or
                // the listener has not bound its socket for this data path yet (the handshake times out).
                let retry =
                    [.invalidConfiguration, .socket, .handshakeTimedOut].contains(error.code)
                    && !error.detail.contains("ALPN") && !error.detail.contains("identity")
                if Task.isCancelled {
                    throw WAError(.connectionFailed, message: "cancelled while connecting to \(remote) over QUIC")
                }
                guard retry, ContinuousClock.now + .milliseconds(500) < deadline else {
                    throw handshakeError(error, verdict: decision.value.withLock { $0 }, peer: peer, device: device)
                }
                let reason = "QUIC to \(remote): \(error)"
                if reason != lastReason {
                    onStateUpdate?(.waiting(reason))
                    lastReason = reason
                }
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// The verdict of a finished handshake (``ConnectionTLS/settle(_:certificate:device:abort:)``), the
    /// connection cancelled if it is not trusted after all.
    static func settle(
        _ decision: VerdictBox, tls: ConnectionTLS, certificate: WAPeerCertificate, device: WAPairedDevice?,
        _ connection: QUICConnection
    ) throws(QUICError) -> WAConnectionTrust.Basis {
        do throws(WAError) {
            return try tls.settle(decision, certificate: certificate, device: device) { connection.cancel(code: 1) }
        } catch {
            throw QUICError(.untrustedPeer, error.message)
        }
    }

    /// The listener's side for one data path: binds a QUIC listener on `port` of the data interface's
    /// address (the peer's paired device read again from `device` for each, as a pin may have been learned),
    /// accepts a client, sets its connection up in a task of its own (yielding it, or why it was
    /// refused) and binds the next listener, until the task is cancelled (the data path or the listener
    /// ended).
    static func serve(
        _ dataPath: WADataPathConnection, port: UInt16, tls: ConnectionTLS, parameters: WAConnectionParameters,
        device: @escaping @Sendable () -> WAPairedDevice?,
        setUp:
            @escaping @Sendable (QUICConnection, WAPairedDevice?, WAPeerCertificate, WAConnectionTrust.Basis)
            async throws(WAError) -> Void,
        refused: @escaping @Sendable (WAError) -> Void
    ) async {
        let local = LinkLocalEndpoint(address: dataPath.localAddress, interface: dataPath.interfaceName, port: port)
        await withTaskGroup(of: Void.self) { group in
            while !Task.isCancelled {
                let device = device()
                let (trust, decision) = tls.judge(peer: dataPath.peer, device: device, dataPath: dataPath)
                let configuration = configuration(
                    tls, trust: trust, alpn: parameters.transport.alpn, timeout: parameters.setupTimeout)
                let listener: QUICListener
                do throws(QUICError) { listener = try QUICListener(on: local, configuration: configuration) } catch {
                    if error.code == .unavailable {
                        refused(WAError(.connectionFailed, message: "\(error)"))
                        return
                    }
                    // The data interface's address is still tentative: bind again shortly.
                    try? await Task.sleep(for: .milliseconds(500))
                    continue
                }
                let connection: QUICConnection
                do throws(QUICError) { connection = try await listener.accept() } catch {
                    if error.code == .cancelled || Task.isCancelled { return }
                    refused(
                        handshakeError(
                            error, verdict: decision.value.withLock { $0 }, peer: dataPath.peer, device: device))
                    continue
                }
                // The verdict is settled (a learned pin stored) before the next listener reads the device.
                let certificate = WAPeerCertificate(connection.peerCertificate)
                let basis: WAConnectionTrust.Basis
                do throws(QUICError) {
                    basis = try settle(decision, tls: tls, certificate: certificate, device: device, connection)
                } catch {
                    refused(WAError(.connectionFailed, message: "refused the peer's certificate: \(error.detail)"))
                    continue
                }
                group.addTask {
                    do throws(WAError) {
                        try await setUp(connection, device, certificate, basis)
                    } catch {
                        connection.cancel(code: 1, linger: .zero)
                        refused(error)
                    }
                }
            }
            group.cancelAll()
        }
    }

    /// The first stream the peer opens (the preface's), within the connection's life.
    static func firstInboundStream(of connection: QUICConnection) async throws(WAError) -> QUICStream {
        for await stream in connection.inboundStreams { return stream }
        throw WAError(.connectionFailed, message: "the peer's QUIC connection ended before it opened a stream")
    }

    /// A failed QUIC handshake as the connection's error, worded as TLS's (``ConnectionTLS/handshakeError``).
    static func handshakeError(
        _ error: QUICError, verdict: TrustVerdict?, peer: MACAddress, device: WAPairedDevice?
    ) -> WAError {
        let who = device.map { "paired device '\($0.displayName)' (\(peer))" } ?? "\(peer)"
        if error.code == .untrustedPeer, case .refused(let reason)? = verdict {
            return WAError(.connectionFailed, message: "refused the peer's certificate: \(reason)", underlying: error)
        }
        if error.code == .untrustedPeer {
            return WAError(
                .connectionFailed, message: "refused the peer's certificate: \(error.detail)", underlying: error)
        }
        if error.code == .refusedByPeer {
            return WAError(
                .connectionFailed,
                message: "\(who) refused our certificate (it pins another one for this device, "
                    + "or does not trust unpaired peers: pair with it, or both sides ask for --tofu)", underlying: error
            )
        }
        if error.code == .unavailable {
            return WAError(.connectionFailed, message: "\(error.detail)", underlying: error)
        }
        if error.code == .noApplicationProtocol {
            return WAError(
                .connectionFailed, message: "no QUIC application protocol in common with \(who): \(error.detail)",
                underlying: error)
        }
        let hint =
            error.code == .handshakeTimedOut ? " (does the peer listen with QUIC, or with TLS over TCP?)" : ""
        return WAError(
            .connectionFailed, message: "the QUIC handshake with \(who) failed: \(error)\(hint)", underlying: error)
    }
}

/// A connection's reliable bytes on its first QUIC stream (the preface, then messages or the byte stream).
struct QUICChannel: ConnectionChannel {
    let connection: QUICConnection
    let stream: QUICStream

    func send(_ bytes: [UInt8]) async throws(WAError) {
        do throws(QUICError) { try await stream.write(bytes) } catch { throw Self.error(error, while: "send") }
    }

    func receive(maximum: Int) async throws(WAError) -> [UInt8] {
        do throws(QUICError) { return try await stream.read(maximum: maximum) } catch {
            throw Self.error(error, while: "receive")
        }
    }

    func closeWrite() async { try? await stream.finish() }

    /// Wakes every waiting call at once; the QUIC connection closes once the peer has what was written.
    func cancel() { connection.cancel() }

    static func error(_ error: QUICError, while action: String) -> WAError {
        switch error.code {
        case .cancelled, .closed:
            return WAError(.connectionTerminated, message: "the connection was cancelled", underlying: error)
        case .closedByPeer:
            return WAError(.connectionTerminated, message: "the peer closed the connection", underlying: error)
        case .idleTimedOut:
            return WAError(
                .connectionTerminated,
                message: "the peer went silent (QUIC idle timeout: it stopped or the link broke)",
                underlying: error)
        default:
            return WAError(
                .connectionTerminated, message: "the connection to the peer ended (\(action): \(error))",
                underlying: error)
        }
    }
}
