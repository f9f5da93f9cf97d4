internal import CCrypto
internal import CSSL

extension OpenSSL {
    /// Creates and frees an `SSL_CTX` for `TLS_client_method()`: proof that libssl links and initialises.
    static func canCreateTLSContext() -> Bool {
        guard let context = SSL_CTX_new(TLS_client_method()) else { return false }
        SSL_CTX_free(context)
        return true
    }
}

/// The TLS protocol versions as libssl numbers (`TLS1_2_VERSION`, `TLS1_3_VERSION`).
enum TLSProtocolVersion: Int32, Sendable {
    case tls12 = 0x0303
    case tls13 = 0x0304
}

/// What OpenSSL's C callbacks of one session record, reached through an opaque pointer (the certificate
/// verification argument and the `SSL`'s ex-data slot 0). Owned by its ``TLSEngine``, which outlives the `SSL`.
final class TLSCallbackState {
    let trust: TLSTrust
    /// The peer's certificate, once this side's trust accepted it, and why.
    var accepted: (certificate: PeerCertificate, basis: TLSTrust.Basis)?
    /// The peer's certificate this side's trust refused.
    var refused: PeerCertificate?
    /// Client: a session ticket arrived, so the server finished the handshake (it accepted our certificate).
    var ticketReceived = false

    init(trust: TLSTrust) { self.trust = trust }
}

/// What one `SSL_read` gave.
enum TLSEngineRead {
    case bytes([UInt8])
    case wantsInput
    case endOfStream
}

/// One libssl connection (`SSL_CTX` + `SSL`) over two memory BIOs: ciphertext in, ciphertext out. No
/// sockets, files or threads: ``TLSSession`` pumps it. Not thread-safe (one caller at a time).
final class TLSEngine {
    private let context: OpaquePointer
    let ssl: OpaquePointer
    private let inbound: OpaquePointer
    private let outbound: OpaquePointer
    let callbacks: TLSCallbackState
    /// The largest plaintext of one TLS record.
    static let recordSize = 16 * 1024

    /// A client or server engine: TLS `versions` only (1.3 unless a test asks), presenting `identity`
    /// (a test may leave it out), requiring and checking the peer's certificate with `trust`.
    init(
        isServer: Bool, identity: TLSIdentity?, trust: TLSTrust, minimum: TLSProtocolVersion,
        maximum: TLSProtocolVersion
    ) throws(TLSError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(isServer ? TLS_server_method() : TLS_client_method()) else {
            throw TLSError(.library, "SSL_CTX_new: \(OpenSSL.errorText(or: "failed"))")
        }
        self.context = context
        callbacks = TLSCallbackState(trust: trust)
        var configured =
            SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(minimum.rawValue), nil) == 1
            && SSL_CTX_ctrl(context, SSL_CTRL_SET_MAX_PROTO_VERSION, Int(maximum.rawValue), nil) == 1
        if let identity {
            configured =
                configured && SSL_CTX_use_certificate(context, identity.material.certificate) == 1
                && SSL_CTX_use_PrivateKey(context, identity.material.key) == 1
                && SSL_CTX_check_private_key(context) == 1
        }
        // Mutual authentication: both sides require the other's certificate. Chain verification is replaced by
        // the trust decision (certificates are self-signed), made during the handshake.
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        SSL_CTX_set_cert_verify_callback(context, tlsVerifyCertificate, Unmanaged.passUnretained(callbacks).toOpaque())
        if isServer {
            // One ticket, sent when the handshake ends: the client takes it as the server's acceptance.
            configured = configured && SSL_CTX_set_num_tickets(context, 1) == 1
            let sessionContext: [UInt8] = Array("waware".utf8)
            configured =
                configured && SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count)) == 1
        } else {
            // Have libssl report the server's session ticket (SSL_SESS_CACHE_CLIENT | NO_INTERNAL_STORE);
            // it is never stored or used for resumption.
            _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_SESS_CACHE_MODE, 0x0001 | 0x0300, nil)
            SSL_CTX_sess_set_new_cb(context, tlsSessionTicketArrived)
        }
        guard configured, let ssl = SSL_new(context) else {
            let text = OpenSSL.errorText(or: "failed")
            SSL_CTX_free(context)
            throw TLSError(identity == nil ? .library : .invalidIdentity, "TLS context: \(text)")
        }
        guard let inbound = BIO_new(BIO_s_mem()), let outbound = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            SSL_CTX_free(context)
            throw TLSError(.library, "BIO_new failed")
        }
        self.ssl = ssl
        self.inbound = inbound
        self.outbound = outbound
        SSL_set_bio(ssl, inbound, outbound)  // the SSL owns both now
        _ = SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(callbacks).toOpaque())
        if isServer { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Hands received ciphertext to libssl.
    func feed(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                BIO_write(inbound, raw.baseAddress! + offset, Int32(clamping: raw.count - offset))
            }
            guard written > 0 else { return }  // a memory BIO only fails when memory runs out
            offset += Int(written)
        }
    }

    /// Ciphertext bytes waiting to be sent.
    var outgoingCount: Int { Int(BIO_ctrl_pending(outbound)) }

    /// Takes up to `maximum` bytes of ciphertext to send.
    func takeOutgoing(maximum: Int) -> [UInt8] { OpenSSL.drain(outbound, maximum: maximum) }

    /// Advances the handshake: true when libssl has finished it, false when it needs more input.
    func handshake() throws(TLSError) -> Bool {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return true }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return false }
        throw failure(error, during: "handshake")
    }

    /// Reads decrypted bytes, at most `maximum`: every record the ciphertext fed so far completes, decrypted
    /// straight into the returned array (no zero fill, no second copy).
    ///
    /// A failure or the peer's `close_notify` after some bytes were decrypted is reported by the next call
    /// (libssl repeats both), so no byte that arrived before it is lost.
    func read(maximum: Int) throws(TLSError) -> TLSEngineRead {
        // Plaintext is never longer than the ciphertext it comes from: what libssl holds decrypted, what waits in
        // the inbound BIO, and one record whose start libssl may already have taken from the BIO bound what
        // this call can return.
        let bound = Int(SSL_pending(ssl)) + Int(BIO_ctrl_pending(inbound)) + Self.recordSize
        let limit = max(1, min(maximum, bound))
        var error: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
            while count < limit {
                ERR_clear_error()
                let result = SSL_read(ssl, buffer.baseAddress! + count, Int32(clamping: limit - count))
                guard result > 0 else {
                    error = SSL_get_error(ssl, result)
                    return
                }
                count += Int(result)
            }
        }
        if !bytes.isEmpty { return .bytes(bytes) }
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return .wantsInput }
        if error == SSL_ERROR_ZERO_RETURN { return .endOfStream }
        throw failure(error, during: "read")
    }

    /// Encrypts all of `bytes` into the outgoing BIO.
    func write(_ bytes: ArraySlice<UInt8>) throws(TLSError) {
        var offset = 0
        while offset < bytes.count {
            ERR_clear_error()
            let result = bytes.withUnsafeBytes { raw in
                SSL_write(ssl, raw.baseAddress! + offset, Int32(clamping: raw.count - offset))
            }
            guard result > 0 else { throw failure(SSL_get_error(ssl, result), during: "write") }
            offset += Int(result)
        }
    }

    /// Queues `close_notify`.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    // MARK: Errors

    // TLS alert numbers (RFC 8446 §6) and libssl reason codes used to classify failures.
    private static let alertReasonOffset: Int32 = 1000  // SSL_AD_REASON_OFFSET: a received alert's reason
    // bad_certificate … certificate_required
    private static let certificateAlerts: Set<Int32> = [42, 43, 44, 45, 46, 48, 116]
    private static let protocolVersionAlert: Int32 = 70
    private static let unsupportedProtocolReason: Int32 = 258  // SSL_R_UNSUPPORTED_PROTOCOL
    private static let noPeerCertificateReason: Int32 = 199  // SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE
    private static let certificateRequiredReason: Int32 = 1116  // SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED

    /// The typed error for a failed libssl call, with libssl's reasons as text; clears the error queue.
    private func failure(_ sslError: Int32, during step: String) -> TLSError {
        var reasons: [Int32] = []
        var texts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            reasons.append(ERR_GET_LIB(code) == ERR_LIB_SSL ? ERR_GET_REASON(code) : 0)
            if let text = ERR_reason_error_string(code) { texts.append(String(cString: text)) }
        }
        let text = texts.isEmpty ? "libssl error \(sslError) during \(step)" : texts.joined(separator: "; ")
        if let refused = callbacks.refused { return .untrustedPeer(refused.fingerprint, text) }
        for reason in reasons {
            if reason == Self.noPeerCertificateReason { return TLSError(.missingPeerCertificate, text) }
            if reason == Self.unsupportedProtocolReason { return TLSError(.unsupportedVersion, text) }
            if reason == Self.certificateRequiredReason {
                return TLSError(.refusedByPeer, "the peer requires a client certificate: \(text)")
            }
            if reason > Self.alertReasonOffset {
                let alert = reason - Self.alertReasonOffset
                if alert == Self.protocolVersionAlert {
                    return TLSError(.unsupportedVersion, "the peer requires another TLS version: \(text)")
                }
                if Self.certificateAlerts.contains(alert) { return TLSError(.refusedByPeer, text) }
                return TLSError(.handshakeFailed, "the peer sent an alert: \(text)")
            }
        }
        return TLSError(step == "handshake" ? .handshakeFailed : .protocolError, text)
    }
}

/// libssl's certificate verification, replaced: the peer's leaf certificate goes to the session's
/// ``TLSTrust``. A refusal sets `X509_V_ERR_CERT_REJECTED`, which libssl sends as a `bad_certificate` alert.
private let tlsVerifyCertificate: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = {
    store, argument in
    guard let store, let argument else { return 0 }
    let callbacks = Unmanaged<TLSCallbackState>.fromOpaque(argument).takeUnretainedValue()
    let certificate = X509_STORE_CTX_get0_cert(store).flatMap { try? OpenSSL.peerCertificate($0) }
    guard let certificate else {
        X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
        return 0
    }
    guard let basis = callbacks.trust.evaluate(certificate) else {
        callbacks.refused = certificate
        X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
        return 0
    }
    callbacks.accepted = (certificate, basis)
    X509_STORE_CTX_set_error(store, X509_V_OK)
    return 1
}

/// Client: the server sent a session ticket (TLS 1.3 `NewSessionTicket`), so it has accepted the handshake,
/// our certificate included. Returns 0: libssl keeps (and frees) the session.
private let tlsSessionTicketArrived: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32 = { ssl, _ in
    if let ssl, let pointer = SSL_get_ex_data(ssl, 0) {
        Unmanaged<TLSCallbackState>.fromOpaque(pointer).takeUnretainedValue().ticketReceived = true
    }
    return 0
}
