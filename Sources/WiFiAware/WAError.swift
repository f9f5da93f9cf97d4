public import FoundationEssentials

/// An error from the WiFiAware API, modelled on Apple's `WAError`.
///
/// Every error has a ``code`` to match on, a one-line ``message`` a user can act on,
/// and where it came from something lower (the kernel, the file system) the
/// ``underlying`` cause, the kernel's ``errno`` and its extended-ack ``kernelMessage``.
///
/// Match a code in `catch` the way you would with Apple's framework:
///
/// ```swift
/// do {
///     let service = try WAPublishableService.named("_file-share._tcp")
/// } catch WAError.serviceNotDeclared {
///     print("declare _file-share._tcp in services.json first")
/// }
/// ```
public struct WAError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. Compare with the static members, e.g. `.serviceNotDeclared`.
    public let code: Code
    /// A one-line explanation a user can act on.
    public let message: String
    /// The lower-level error this one was made from, if any.
    public let underlying: (any Error)?
    /// The POSIX error number reported by the kernel or the file system, if any.
    public let errno: Int32?
    /// The kernel's own explanation (netlink extended ack), if it gave one.
    public let kernelMessage: String?
    /// Why a pairing failed, for a `connectionFailed` from ``WAPairing``; nil otherwise.
    public let pairingFailure: WAPairingFailure?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: A one-line explanation; when `nil`, the code's general explanation is used.
    ///   - errno: The POSIX error number behind the failure, if any.
    ///   - kernelMessage: The kernel's extended-ack message, if any.
    ///   - underlying: The lower-level error, if any.
    ///   - pairingFailure: Why a pairing failed, if this is a pairing's failure.
    public init(
        _ code: Code,
        message: String? = nil,
        errno: Int32? = nil,
        kernelMessage: String? = nil,
        underlying: (any Error)? = nil,
        pairingFailure: WAPairingFailure? = nil
    ) {
        self.code = code
        self.message = message ?? code.generalExplanation
        self.errno = errno
        self.kernelMessage = kernelMessage
        self.underlying = underlying
        self.pairingFailure = pairingFailure
    }

    /// The message, so that printing an error shows what to do about it.
    public var description: String { message }
}

extension WAError: LocalizedError {
    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }
}

extension WAError {
    /// The kind of a ``WAError``. New codes may be added; do not switch over them exhaustively.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case wifiAwareUnsupported
            case serviceNotDeclared
            case noPairedDevices
            case deviceInvalid
            case connectionFailed
            case connectionTerminated
            case noRadioResources
            case serviceAlreadyPublishing
            case serviceAlreadySubscribing
            case permissionDenied
            case adapterNotFound
            case kernel
            case deviceRemoved
            case nl80211Unavailable
            case alreadyRunning
            case ambiguousAdapter
            case invalidServiceName
            case servicesFileNotFound
            case servicesFileInvalid
            case deviceStoreCorrupt
            case storageFailed
            case invalidArgument
            case hwsimNotLoaded
            case hwsimWithoutNAN
        }

        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The code's name, e.g. `serviceNotDeclared`.
        public var description: String { wrapped.rawValue }

        // Apple's codes.

        /// No adapter can do Wi-Fi Aware (NAN), or the driver lacks a needed feature. Apple: `wifiAwareUnsupported`.
        public static var wifiAwareUnsupported: Self { Self(.wifiAwareUnsupported) }
        /// The service is not declared in the services file for this role. Apple: `serviceNotDeclared`.
        public static var serviceNotDeclared: Self { Self(.serviceNotDeclared) }
        /// The operation needs paired devices and there are none. Apple: `noPairedDevices`.
        public static var noPairedDevices: Self { Self(.noPairedDevices) }
        /// The device is not (or no longer) in the paired-device store. Apple: `deviceInvalid`.
        public static var deviceInvalid: Self { Self(.deviceInvalid) }
        /// A connection to a peer could not be set up. Apple: `connectionFailed`.
        public static var connectionFailed: Self { Self(.connectionFailed) }
        /// A connection to a peer ended. Apple: `connectionTerminated`.
        public static var connectionTerminated: Self { Self(.connectionTerminated) }
        /// The radio has no room for another session or data path. Apple: `noRadioResources`.
        public static var noRadioResources: Self { Self(.noRadioResources) }
        /// This service is already being published on this device. Apple: `serviceAlreadyPublishing`.
        public static var serviceAlreadyPublishing: Self { Self(.serviceAlreadyPublishing) }
        /// This service is already being subscribed to on this device. Apple: `serviceAlreadySubscribing`.
        public static var serviceAlreadySubscribing: Self { Self(.serviceAlreadySubscribing) }

        // Linux codes.

        /// The process lacks a permission it needs: `CAP_NET_ADMIN` for the radio, or file access.
        /// Apple's nearest is `entitlementMissing`.
        public static var permissionDenied: Self { Self(.permissionDenied) }
        /// The named adapter (wiphy or interface) does not exist.
        public static var adapterNotFound: Self { Self(.adapterNotFound) }
        /// The kernel refused a request; see ``WAError/errno`` and ``WAError/kernelMessage``.
        public static var kernel: Self { Self(.kernel) }
        /// The adapter or its NAN interface went away while a session ran (radio deleted, driver unloaded,
        /// unplugged). The sessions on it have ended.
        public static var deviceRemoved: Self { Self(.deviceRemoved) }
        /// The kernel has no nl80211 (cfg80211 is not loaded or not built), so no Wi-Fi adapter can be used.
        public static var nl80211Unavailable: Self { Self(.nl80211Unavailable) }
        /// NAN already runs on the adapter for another program (or a `waware cluster start`); stop it first.
        public static var alreadyRunning: Self { Self(.alreadyRunning) }
        /// No adapter was named and several can do Wi-Fi Aware: name one (the message lists them).
        public static var ambiguousAdapter: Self { Self(.ambiguousAdapter) }

        // Configuration and storage codes.

        /// A service name breaks the naming rules (`_name._tcp` or `_name._udp`, 1-15 characters, ...).
        public static var invalidServiceName: Self { Self(.invalidServiceName) }
        /// No services file exists where one was looked for.
        public static var servicesFileNotFound: Self { Self(.servicesFileNotFound) }
        /// The services file exists but cannot be used (bad JSON, unknown key, wrong type, bad value).
        public static var servicesFileInvalid: Self { Self(.servicesFileInvalid) }
        /// The paired-device store is corrupt, foreign, or written by a newer waware.
        public static var deviceStoreCorrupt: Self { Self(.deviceStoreCorrupt) }
        /// Reading or writing a file failed for a reason other than permissions (disk full, read-only file system, ...).
        public static var storageFailed: Self { Self(.storageFailed) }
        /// A value passed to the API is not acceptable (an empty device name, a multicast address, ...).
        public static var invalidArgument: Self { Self(.invalidArgument) }

        // The tools' codes (simulated radios), not part of the API.

        /// The `mac80211_hwsim` module is not loaded, so no simulated radio can be managed.
        @_spi(Tools) public static var hwsimNotLoaded: Self { Self(.hwsimNotLoaded) }
        /// This kernel's `mac80211_hwsim` cannot simulate NAN radios (it needs Linux 7.2).
        @_spi(Tools) public static var hwsimWithoutNAN: Self { Self(.hwsimWithoutNAN) }

        /// Used when an error is created without a specific message.
        var generalExplanation: String {
            switch wrapped {
            case .wifiAwareUnsupported:
                "no Wi-Fi Aware (NAN) capable adapter was found; check `iw list` for NAN support"
            case .serviceNotDeclared:
                "the service is not declared; add it under WiFiAwareServices in the services file"
            case .noPairedDevices:
                "there are no paired devices; add one with `waware devices add <address> <name>`"
            case .deviceInvalid:
                "the device is not paired; list paired devices with `waware devices list`"
            case .connectionFailed:
                "the connection to the peer could not be set up; check that the peer is in range and still publishing"
            case .connectionTerminated:
                "the connection to the peer ended; it may have gone out of range or stopped its service"
            case .noRadioResources:
                "the radio has no room for another session; end another session and try again"
            case .serviceAlreadyPublishing:
                "this service is already being published on this device; cancel the other publisher first"
            case .serviceAlreadySubscribing:
                "this service is already being subscribed to on this device; cancel the other subscriber first"
            case .permissionDenied:
                "permission denied; controlling the radio needs CAP_NET_ADMIN (run as root or grant the capability)"
            case .adapterNotFound:
                "the adapter was not found; list adapters with `waware list`"
            case .kernel:
                "the kernel refused the request"
            case .deviceRemoved:
                "the adapter went away (removed, unplugged or its driver unloaded); see `waware list`"
            case .nl80211Unavailable:
                "this kernel has no nl80211 (cfg80211 is not loaded or not built), so there is no Wi-Fi to use"
            case .alreadyRunning:
                "NAN is already running on this adapter; stop the other program or `waware cluster stop` first"
            case .ambiguousAdapter:
                "several adapters can do Wi-Fi Aware; name one"
            case .invalidServiceName:
                "the service name is invalid; use _name._tcp or _name._udp with 1-15 letters, digits or '-'"
            case .servicesFileNotFound:
                "no services file was found; create one or set WAWARE_SERVICES to its path"
            case .servicesFileInvalid:
                "the services file is invalid"
            case .deviceStoreCorrupt:
                "the paired-device store is corrupt"
            case .storageFailed:
                "a file could not be read or written"
            case .invalidArgument:
                "an argument is invalid"
            case .hwsimNotLoaded:
                "the mac80211_hwsim module is not loaded; run 'modprobe mac80211_hwsim radios=0' first"
            case .hwsimWithoutNAN:
                "this kernel's mac80211_hwsim cannot create NAN radios; it needs Linux 7.2 or newer"
            }
        }

        /// Matches an error against a code, so that `catch WAError.deviceInvalid` works.
        ///
        /// - Parameters:
        ///   - pattern: The code to look for.
        ///   - error: The error being matched.
        /// - Returns: Whether `error` is a ``WAError`` with that code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? WAError)?.code == pattern
        }
    }
}

// Apple-style spellings: `catch WAError.serviceNotDeclared` and `error.code == WAError.deviceInvalid`.
extension WAError {
    /// The code ``Code/wifiAwareUnsupported``.
    public static var wifiAwareUnsupported: Code { .wifiAwareUnsupported }
    /// The code ``Code/serviceNotDeclared``.
    public static var serviceNotDeclared: Code { .serviceNotDeclared }
    /// The code ``Code/noPairedDevices``.
    public static var noPairedDevices: Code { .noPairedDevices }
    /// The code ``Code/deviceInvalid``.
    public static var deviceInvalid: Code { .deviceInvalid }
    /// The code ``Code/connectionFailed``.
    public static var connectionFailed: Code { .connectionFailed }
    /// The code ``Code/connectionTerminated``.
    public static var connectionTerminated: Code { .connectionTerminated }
    /// The code ``Code/noRadioResources``.
    public static var noRadioResources: Code { .noRadioResources }
    /// The code ``Code/serviceAlreadyPublishing``.
    public static var serviceAlreadyPublishing: Code { .serviceAlreadyPublishing }
    /// The code ``Code/serviceAlreadySubscribing``.
    public static var serviceAlreadySubscribing: Code { .serviceAlreadySubscribing }
    /// The code ``Code/permissionDenied``.
    public static var permissionDenied: Code { .permissionDenied }
    /// The code ``Code/adapterNotFound``.
    public static var adapterNotFound: Code { .adapterNotFound }
    /// The code ``Code/kernel``.
    public static var kernel: Code { .kernel }
    /// The code ``Code/deviceRemoved``.
    public static var deviceRemoved: Code { .deviceRemoved }
    /// The code ``Code/invalidServiceName``.
    public static var invalidServiceName: Code { .invalidServiceName }
    /// The code ``Code/servicesFileNotFound``.
    public static var servicesFileNotFound: Code { .servicesFileNotFound }
    /// The code ``Code/servicesFileInvalid``.
    public static var servicesFileInvalid: Code { .servicesFileInvalid }
    /// The code ``Code/deviceStoreCorrupt``.
    public static var deviceStoreCorrupt: Code { .deviceStoreCorrupt }
    /// The code ``Code/storageFailed``.
    public static var storageFailed: Code { .storageFailed }
    /// The code ``Code/invalidArgument``.
    public static var invalidArgument: Code { .invalidArgument }
}
