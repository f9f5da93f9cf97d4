internal import CSSL

extension OpenSSL {
    /// Creates and frees an `SSL_CTX` for `TLS_client_method()`: proof that libssl links and initialises.
    static func canCreateTLSContext() -> Bool {
        guard let context = SSL_CTX_new(TLS_client_method()) else { return false }
        SSL_CTX_free(context)
        return true
    }
}
