/// The Wi-Fi Aware radio this layer's listeners, browsers and connections share. Apple's framework has
/// one system-wide radio; here the first listener, browser or connection brings NAN up on an adapter
/// (``WASystem/run(adapter:options:_:)``) and it stays up, for all of them, until ``stop()`` or the process
/// ends (the kernel then removes the NAN interface). Configure it before the first use.
public enum NetworkWiFiAware {
    /// How the shared radio is brought up.
    public struct Configuration: Sendable {
        /// The adapter (`phy0`, a wiphy index or an interface name); nil: the only NAN-capable one.
        public var adapter: String? = nil
        /// The system's options (paired-device store, logger, cluster timeout ...).
        public var options = WASystemOptions()
        /// How data paths under connections are protected: keyed by the pairing (the default, as between
        /// Apple's paired devices), or with a passphrase, or open.
        public var dataPathSecurity: WADataPathSecurity = .pairing
        /// This device's peer identifier on connections (TN3213's persisted peer identifier); nil: the one
        /// kept next to the paired-device store (``WAPeerIdentifier/local(for:)``).
        public var peerIdentifier: WAPeerIdentifier? = nil

        /// The defaults.
        public init() {}
    }

    /// The configuration the next start uses (changing it does not move a radio already up).
    public static var configuration: Configuration {
        get { SharedSystem.shared.configuration }
        set { SharedSystem.shared.configuration = newValue }
    }

    /// Stops the shared radio (every listener, browser and connection on it ends); the next use starts it
    /// again.
    public static func stop() async { await SharedSystem.shared.stop() }
}
