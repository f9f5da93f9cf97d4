internal import FoundationEssentials
internal import NANCrypto
internal import NANSystem
internal import NANWire
internal import Synchronization

/// The TLS side of setting up a connection: this device's identity, how the peer's certificate is judged,
/// and the store a learned pin goes to.
struct ConnectionTLS: Sendable {
    let identity: TLSIdentity
    let trust: WAConnectionTrust
    /// Where learned pins are stored; nil: nothing is stored (tests).
    let store: WADeviceStore?

    /// The file name of the identity in the state folder.
    static let defaultFileName = "tls-identity.pem"

    /// The identity file `parameters` name, or the default one next to `store`'s file.
    static func identityPath(_ parameters: WAConnectionParameters, store: WADeviceStore) -> String {
        parameters.identityFile ?? store.url.deletingLastPathComponent().path + "/" + defaultFileName
    }

    /// The TLS side for `parameters` (nil for plain TCP): loads this device's identity, making and storing it
    /// (0600) on first use.
    ///
    /// - Throws: ``WAError/Code/storageFailed`` or ``WAError/Code/permissionDenied`` when the identity file
    ///   cannot be read or written, or holds something else.
    static func forParameters(
        _ parameters: WAConnectionParameters, store: WADeviceStore,
        localPeer: WAPeerIdentifier
    ) throws(WAError) -> ConnectionTLS? {
        guard !parameters.transport.isPlain else { return nil }
        let path = identityPath(parameters, store: store)
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        do throws(FileError) {
            if !folder.isEmpty { try FileSystem.createFolder(at: folder, mode: 0o700) }
            let identity = try TLSIdentityFile.loadOrCreate(at: path, commonName: "waware \(localPeer)").identity
            return ConnectionTLS(identity: identity, trust: parameters.trust, store: store)
        } catch {
            throw WAError.file(error, action: "load this device's TLS identity", path: path)
        }
    }

    /// This device's certificate in the identity file for `parameters` (made on first use).
    static func localCertificate(
        _ parameters: WAConnectionParameters, store: WADeviceStore
    ) throws(WAError) -> WAPeerCertificate {
        var tls = parameters
        tls.transport = .tls
        guard let loaded = try forParameters(tls, store: store, localPeer: try WAPeerIdentifier.local(for: store))
        else {
            throw WAError(.invalidArgument, message: "no TLS identity for plain TCP")
        }
        return WAPeerCertificate(loaded.identity.certificate)
    }

    /// Runs the handshake on `socket` as the client (`isInitiator`) or the server, judging the peer's
    /// certificate with the trust; pins a learned certificate to `device` once the handshake finished.
    ///
    /// - Throws: ``WAError/Code/connectionFailed`` naming why: the peer's certificate refused (and why), ours
    ///   refused by the peer, or the handshake failing otherwise.
    func handshake(
        on socket: StreamSocket, isInitiator: Bool, peer: MACAddress, device: WAPairedDevice?,
        dataPath: WADataPathConnection, timeout: Duration
    ) async throws(WAError) -> (TLSChannel, WAPeerCertificate, WAConnectionTrust.Basis) {
        let (tlsTrust, decision) = judge(peer: peer, device: device, dataPath: dataPath)
        let stream: TLSStream
        do throws(TLSError) {
            stream = try await TLSStream.handshake(
                isInitiator ? .client : .server, over: socket, identity: identity,
                trust: tlsTrust, timeout: timeout)
        } catch {
            throw Self.handshakeError(error, verdict: decision.value.withLock { $0 }, peer: peer, device: device)
        }
        let certificate = WAPeerCertificate(stream.peerCertificate)
        let basis = try settle(decision, certificate: certificate, device: device, abort: stream.abort)
        return (TLSChannel(stream: stream), certificate, basis)
    }

    /// How the handshake judges the peer's certificate (TLS over TCP and QUIC alike): by the trust, for this
    /// peer and device over this data path; the verdict lands in the box.
    func judge(
        peer: MACAddress, device: WAPairedDevice?, dataPath: WADataPathConnection
    ) -> (TLSTrust, VerdictBox) {
        let keyedByPairing = dataPath.cipherSuite?.isPairing == true
        let decision = VerdictBox()
        let trust = self.trust
        let tlsTrust = TLSTrust.custom { certificate in
            let verdict = trust.verdict(
                on: WAPeerCertificate(certificate), from: device, peer: peer, dataPathKeyedByPairing: keyedByPairing)
            decision.value.withLock { $0 = verdict }
            if case .refused = verdict { return false }
            return true
        }
        return (tlsTrust, decision)
    }

    /// After a handshake that finished: why the peer's certificate is trusted, storing a learned pin for
    /// `device`; `abort` ends the session when it is not trusted after all.
    func settle(
        _ decision: VerdictBox, certificate: WAPeerCertificate, device: WAPairedDevice?, abort: () -> Void
    ) throws(WAError) -> WAConnectionTrust.Basis {
        switch decision.value.withLock({ $0 }) {
        case .trusted(let basis)?: return basis
        case .learn(let basis)?:
            if let store, let device {
                do throws(WAError) { try store.pinCertificate(certificate.fingerprint, to: device.id) } catch {
                    abort()
                    throw WAError(
                        .connectionFailed, message: "refused the peer's certificate: \(error.message)",
                        underlying: error)
                }
            }
            return basis
        case .refused(let reason)?:
            abort()
            throw WAError(.connectionFailed, message: "refused the peer's certificate: \(reason)")
        case nil:
            abort()
            throw WAError(
                .connectionFailed, message: "the handshake finished without judging the peer's certificate")
        }
    }

    static func handshakeError(
        _ error: TLSError, verdict: TrustVerdict?, peer: MACAddress, device: WAPairedDevice?
    ) -> WAError {
        let who = device.map { "paired device '\($0.displayName)' (\(peer))" } ?? "\(peer)"
        if error.code == .untrustedPeer, case .refused(let reason)? = verdict {
            return WAError(.connectionFailed, message: "refused the peer's certificate: \(reason)", underlying: error)
        }
        if error.code == .refusedByPeer {
            return WAError(
                .connectionFailed,
                message: "\(who) refused our certificate (it pins another one for this device, "
                    + "or does not trust unpaired peers: pair with it, or both sides ask for --tofu)", underlying: error
            )
        }
        if error.code == .cancelled {
            return WAError(.connectionFailed, message: "the TLS handshake with \(who) was cancelled", underlying: error)
        }
        let hint =
            [TLSError.Code.protocolError, .handshakeFailed, .unexpectedEndOfStream, .unsupportedVersion].contains(
                error.code)
            ? " (does the peer use plain TCP, --plain, while this side uses TLS?)" : ""
        return WAError(
            .connectionFailed, message: "the TLS handshake with \(who) failed: \(error)\(hint)", underlying: error)
    }
}

/// The verdict the trust gave during the handshake (its callback runs on the thread driving the session).
final class VerdictBox: Sendable {
    let value = Mutex<TrustVerdict?>(nil)
}

extension WAPeerCertificate {
    /// This device's own certificate, the one its connections present (and peers pin): from the identity
    /// file (`identityFile`, or `tls-identity.pem` next to the store's file), made and stored (0600) on first use.
    ///
    /// - Throws: ``WAError/Code/storageFailed`` or ``WAError/Code/permissionDenied`` when the file cannot be
    ///   read or written, or holds something else.
    public static func local(
        for store: WADeviceStore = .default, identityFile: String? = nil
    ) throws(WAError) -> WAPeerCertificate {
        var parameters = WAConnectionParameters(dataPathSecurity: .open)
        parameters.identityFile = identityFile
        return try ConnectionTLS.localCertificate(parameters, store: store)
    }

    init(_ certificate: PeerCertificate) {
        self.init(
            der: certificate.der, subject: certificate.subject, commonName: certificate.commonName,
            fingerprint: WACertificateFingerprint(certificate.fingerprint))
    }
}

/// Mutual TLS 1.3 over TCP (the default transport): a ``TLSStream``.
struct TLSChannel: ConnectionChannel {
    let stream: TLSStream

    func send(_ bytes: [UInt8]) async throws(WAError) {
        do throws(TLSError) { try await stream.write(bytes) } catch { throw Self.error(error, while: "send") }
    }

    func receive(maximum: Int) async throws(WAError) -> [UInt8] {
        do throws(TLSError) { return try await stream.read(maximum: maximum) } catch {
            throw Self.error(error, while: "receive")
        }
    }

    func closeWrite() async { await stream.close() }

    func cancel() { stream.abort() }

    /// The datagram keys' material, exported from this TLS session (dgram; docs/datagrams.md).
    func exportKeyingMaterial(label: String, context: [UInt8], count: Int) async throws(WAError) -> [UInt8]? {
        do throws(TLSError) {
            return try await stream.exportKeyingMaterial(label: label, context: context, count: count)
        } catch {
            throw WAError(.connectionFailed, message: "TLS keying material for datagrams: \(error)", underlying: error)
        }
    }

    static func error(_ error: TLSError, while action: String) -> WAError {
        switch error.code {
        case .cancelled, .closed:
            return WAError(.connectionTerminated, message: "the connection was cancelled", underlying: error)
        case .unexpectedEndOfStream:
            return WAError(
                .connectionTerminated,
                message: "the peer's side ended without closing TLS (the peer stopped or the link broke)",
                underlying: error)
        default:
            return WAError(
                .connectionTerminated, message: "the connection to the peer ended (\(action): \(error))",
                underlying: error)
        }
    }
}
