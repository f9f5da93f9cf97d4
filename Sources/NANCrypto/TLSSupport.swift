/// The TLS library (OpenSSL's libssl) that connections over data paths use (mutual TLS 1.3 by default);
/// this checks that the library links and starts.
public enum TLSSupport {
    /// True when libssl could create (and free) a TLS client context.
    public static var isAvailable: Bool { OpenSSL.canCreateTLSContext() }
}
