import FoundationEssentials
public import NANLogging
public import NANWire
import NANCrypto
import NANEngine
import NANSystem
internal import Synchronization

/// NAN pairing between two devices (Wi-Fi Aware 4.0 pairing setup over PASN): one side publishes a
/// pairing service and accepts a PIN it shows (``Role/accept(pin:)``), the other subscribes and pairs with
/// the first publisher it finds using the PIN its user typed (``Role/initiate(pin:)``); with no PIN both
/// pair opportunistically. Bootstrapping runs first, in follow-ups: the publisher advertises its method
/// (PIN display, or opportunistic), the subscriber asks with the complement (PIN keypad, or
/// opportunistic), and the publisher accepts once its PIN is on screen (a "come back" first). The NIKs are
/// exchanged and the result is recorded in the paired-devices store with its keys
/// (``WADeviceStore/recordPairing(name:managementAddress:identityKey:pairingKey:pairingInfo:)``).
/// Our publish and subscribe frames carry our NIRA, so paired peers recognise us.
///
/// **Verification.** A device already paired is verified instead, without the user: the initiating side
/// resolves the publisher's NIRA against the stored NIKs and, when it names a stored device with a pairing
/// key, runs PASN with the cached NPK (no bootstrapping, no PIN); the accepting side answers such a
/// request by itself. The store then notes the device's current address.
public enum WAPairing {
    /// How a ``run(adapter:role:serviceName:deviceName:store:timeout:keepsAdapterAddress:cipherSuite:logger:progress:)`` ended.
    public struct Outcome: Sendable {
        /// The device as stored.
        public var device: WAPairedDevice
        /// True when a stored pairing was verified with its cached key (no PIN), false for a new pairing.
        public var verified: Bool
    }

    /// The service the two sides meet on unless told otherwise.
    public static let defaultServiceName = "_waware-pair._udp"

    /// Which side this device takes.
    ///
    /// The first two roles take the PIN up front (scripts, or a PIN printed before anyone asks). The last
    /// two follow the flow of a pairing sheet such as DeviceDiscoveryUI's: the accepting side makes a PIN
    /// only when a device asks and hands it to the caller to show; the initiating side pairs with the
    /// endpoint the user picked and asks the caller for the PIN once that device shows it.
    public enum Role: Sendable {
        /// Publish and accept pairing with `pin` (show it to the user); opportunistic when nil.
        case accept(pin: String?)
        /// Subscribe and pair with the first publisher found, with `pin` (typed by the user); opportunistic when nil.
        case initiate(pin: String?)
        /// Publish; when a device asks to pair, make a fresh six-digit PIN, pass it to `display` (with the
        /// asking device's address) to show to the user, then accept that device with it. One device at a
        /// time: a second request replaces the first one's PIN.
        case acceptShowingPIN(display: @Sendable (_ pin: String, _ peer: MACAddress) async -> Void)
        /// Subscribe and pair with the publisher at `peer` (nil: the first found); once it has agreed to a
        /// PIN pairing (it shows its PIN now), ask `entry` for the PIN the user typed. `entry` throwing
        /// (the user cancelled) ends the pairing with that error.
        case initiateAskingPIN(peer: MACAddress?, entry: @Sendable (_ peer: MACAddress) async throws -> String)
    }

    /// Six random decimal digits, for the accepting side to show.
    public static func randomPIN() throws(WAError) -> String {
        let bytes: [UInt8]
        do { bytes = try SecureRandom.bytes(8) } catch {
            throw WAError(.storageFailed, message: "no random bytes for a PIN: \(error)")
        }
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 1_000_000
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Pairs as `role` on `adapter` (or verifies a device already paired) and returns the device as stored.
    ///
    /// - Parameters:
    ///   - adapter: A phy name, wiphy index or interface name; nil takes the only NAN adapter.
    ///   - role: Accept (publish) or initiate (subscribe).
    ///   - serviceName: The service both sides use.
    ///   - deviceName: The name to store the peer under (default `NAN <address>`).
    ///   - store: The paired-devices store (our NIK is kept there too).
    ///   - timeout: How long to wait for the peer and the exchange.
    ///   - keepsAdapterAddress: Keep the adapter's NMI address (default: a random one, as every NAN start).
    ///   - cipherSuite: NCS-PK-PASN-128 (default: P-256, CCMP-128) or NCS-PK-PASN-256 (P-384, SHA-384,
    ///     GCMP-256): the initiator pairs with it, the accepting side accepts only it (a peer asking for the
    ///     other fails on both sides with "cipher suite mismatch"). Stored with the device; a verification
    ///     and the data paths it keys use the stored suite.
    ///   - logger: Where the runtime, discovery and the pairing engine trace what they do (disabled by default).
    ///   - progress: Called with one line at each step (peer found, pairing started).
    ///   - stored: Called with the outcome as soon as it is stored, before NAN stops (stopping it, the
    ///     data interface and the schedule going too, takes a while): the caller can report it at once.
    /// - Throws: ``WAError``: `connectionFailed` with its ``WAError/pairingFailure`` (``WAPairingFailure``:
    ///   wrong PIN, cipher-suite mismatch, timed out, refused, no common bootstrapping method), `wifiAwareUnsupported` when the radio does not pass Authentication frames
    ///   to user space, and the usual adapter and store errors. The accepting roles report a failed attempt
    ///   through `progress` and keep waiting (anyone can forge a frame that fails one); their timeout's
    ///   message then names the last failure.
    public static func run(
        adapter: String?, role: Role, serviceName: String = defaultServiceName, deviceName: String? = nil,
        store: WADeviceStore = .default, timeout: Duration = .seconds(60), keepsAdapterAddress: Bool = false,
        cipherSuite: WACipherSuite = .ncsPKPASN128, logger: Logger = .disabled,
        progress: @escaping @Sendable (String) -> Void = { _ in },
        stored reported: @escaping @Sendable (Outcome) -> Void = { _ in }
    ) async throws -> Outcome {
        guard cipherSuite.isPairing else {
            throw WAError(
                .invalidArgument, message: "\(cipherSuite) is not a NAN pairing cipher suite (NCS-PK-PASN-128 or -256)")
        }
        let suite = cipherSuite.suite
        let chosen: Adapter
        do {
            let adapters = try await NL80211.withSession { session in try await session.adapters() }
            chosen = try WASystem.select(adapter, from: adapters)
        } catch {
            throw WAError.from(error, while: "list Wi-Fi adapters")
        }
        let own = try store.ownIdentityKey()
        guard let identity = NANIdentityKey(bytes: own.bytes) else {
            throw WAError(.deviceStoreCorrupt, message: "our identity key is not 16 bytes")
        }
        let serviceID: ServiceID
        do { serviceID = try ServiceID(serviceName: serviceName) } catch {
            throw WAError(.invalidServiceName, message: "'\(serviceName)' is not a service name: \(error)")
        }
        let stored = try store.devices()
        let known = stored.values.compactMap(pairedKeys)
        // The accepting side goes on after a failed attempt; its timeout then says how the last one failed.
        let lastFailure = LastFailure()
        do {
            var options = DiscoveryOptions()
            options.logger = logger
            // The one bring-up path WASystem takes too: the runtime, the engine, pairing's Authentication
            // frames registered before NAN starts, the cluster and its first DW.
            return try await NANEngine.run(
                on: chosen, clusterTimeout: WASystemOptions().clusterTimeout, options: options,
                address: keepsAdapterAddress ? nil : .randomManagementAddress(),
                beforeStart: { runtime in
                    do { return try await runtime.events(for: PairingEngine.runtimeInterest) } catch {
                        throw WAError(
                            .wifiAwareUnsupported,
                            message:
                                "\(chosen.name) does not pass Authentication frames to user space, so NAN pairing cannot run on it (\(error))"
                        )
                    }
                }
            ) { engine, context in
                let (runtime, frames) = context
                guard let cluster = runtime.cluster else { throw DiscoveryError.noCluster }
                let link = RuntimePairingLink(runtime: runtime, engine: engine)
                let pairing = PairingEngine(
                    localAddress: runtime.localAddress, cluster: cluster, identity: identity, link: link,
                    devices: known, limits: .init(attemptLifetime: timeout, verificationDelay: .zero),
                    bootstrappingLimits: .init(responseTimeout: .seconds(8)), logger: logger)
                await engine.setIdentityResolution(try identity.identityResolution(nmi: runtime.localAddress))
                let server = Task { try? await pairing.serve(frames) }
                defer { server.cancel() }
                let found = try await withDeadline(timeout, what: "no peer paired") {
                    switch role {
                    case .accept(let pin):
                        return try await accept(
                            pin: pin.map { .fixed($0) } ?? .none, suite: suite, serviceID: serviceID,
                            engine: engine,
                            pairing: pairing, link: link, lastFailure: lastFailure, progress: progress)
                    case .acceptShowingPIN(let display):
                        return try await accept(
                            pin: .perRequest(display), suite: suite, serviceID: serviceID, engine: engine,
                            pairing: pairing, link: link, lastFailure: lastFailure, progress: progress)
                    case .initiate(let pin):
                        return try await initiate(
                            peer: nil, pin: pin.map { .fixed($0) } ?? .none, suite: suite, serviceID: serviceID,
                            engine: engine, pairing: pairing, link: link, progress: progress)
                    case .initiateAskingPIN(let peer, let entry):
                        return try await initiate(
                            peer: peer, pin: .asked(entry), suite: suite, serviceID: serviceID,
                            engine: engine, pairing: pairing, link: link, progress: progress)
                    }
                }
                let outcome = try record(found, stored: stored, in: store, name: deviceName)
                reported(outcome)
                return outcome
            }
        } catch let error as WAError {
            throw error
        } catch let error as PairingError {
            let translated = translate(error)
            guard error.code == .timedOut, let last = lastFailure.text else { throw translated }
            throw WAError(
                translated.code, message: "\(translated.message) (the last attempt failed: \(last))", underlying: error,
                pairingFailure: translated.pairingFailure)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw WAError.from(error, while: "pair on \(chosen.name)")
        }
    }

    /// Stores what a pairing `found` (a new pairing, or the address a verified device has now) and returns
    /// the device as stored.
    private static func record(
        _ found: (keys: PairedDeviceKeys, verified: Bool), stored: WAPairedDevice.Devices,
        in store: WADeviceStore, name deviceName: String?
    ) throws(WAError) -> Outcome {
        if found.verified {
            guard let device = stored.values.first(where: { $0.managementAddresses.contains(found.keys.id) }) else {
                throw WAError(.deviceInvalid, message: "the verified device \(found.keys.id) is no longer in the store")
            }
            return Outcome(device: try store.noteAddress(found.keys.lastAddress, of: device.id), verified: true)
        }
        guard
            let pairingKey = try? WAPairedDevice.PairingKey(
                bytes: found.keys.pairing.npk, method: found.keys.pairing.akm == .sae ? .sae : .pasn,
                cipherSuite: WACipherSuite(found.keys.pairing.suite))
        else {
            throw WAError(.connectionFailed, message: "pairing gave no usable key", pairingFailure: .other)
        }
        let nik = try found.keys.nik.map { nik throws(WAError) in try WAPairedDevice.IdentityKey(bytes: nik.bytes) }
        let device = try store.recordPairing(
            name: deviceName ?? "NAN \(found.keys.lastAddress)", managementAddress: found.keys.lastAddress,
            identityKey: nik, pairingKey: pairingKey,
            identityKeyLifetime: found.keys.nikLifetime.map { .seconds(Int64($0)) })
        return Outcome(device: device, verified: false)
    }

    /// A stored device as the pairing engine knows it: its first address names it, with its NIK and NPK;
    /// nil for an entry without a pairing key (typed by hand).
    static func pairedKeys(_ device: WAPairedDevice) -> PairedDeviceKeys? {
        guard let key = device.pairingKey, let address = device.managementAddresses.first,
            let pairing = CachedPairing(
                npk: key.bytes, akm: key.method == .sae ? .sae : .pasn, suite: key.cipherSuite.suite)
        else { return nil }
        return PairedDeviceKeys(
            id: address, lastAddress: address,
            nik: device.identityKey(validAt: Date()).flatMap { NANIdentityKey(bytes: $0.bytes) },
            pairing: pairing)
    }

    /// How the accepting side's last failed attempt failed (set by `accept`, read when its timeout ends it).
    private final class LastFailure: Sendable {
        private let stored = Mutex<String?>(nil)
        var text: String? {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }

    /// Where the accepting side's PIN comes from.
    private enum ShownPIN {
        /// Opportunistic pairing: no PIN.
        case none
        /// One PIN, shown before anyone asked.
        case fixed(String)
        /// A fresh PIN for each device that asks, handed to the caller to show.
        case perRequest(@Sendable (_ pin: String, _ peer: MACAddress) async -> Void)
    }

    /// Where the initiating side's PIN comes from.
    private enum TypedPIN {
        /// Opportunistic pairing (or verification of a paired device): no PIN.
        case none
        /// The PIN given up front.
        case fixed(String)
        /// Asked of the caller once the peer agreed to a PIN pairing.
        case asked(@Sendable (_ peer: MACAddress) async throws -> String)
    }

    /// Publishes the pairing service and waits for one device to pair or verify. An attempt that fails is
    /// reported through `progress` and noted in `lastFailure`, and the wait goes on: a failure may be an
    /// attacker's (a forged frame carries any address), and one must not end the pairing of the device the user
    /// is holding. Only the timeout ends it.
    private static func accept(
        pin: ShownPIN, suite: NDPCipherSuite, serviceID: ServiceID, engine: NANEngine, pairing: PairingEngine,
        link: RuntimePairingLink, lastFailure: LastFailure,
        progress: @escaping @Sendable (String) -> Void
    ) async throws -> (keys: PairedDeviceKeys, verified: Bool) {
        let usesPIN: Bool
        switch pin {
        case .none: usesPIN = false; await pairing.setPolicy(password: nil, allowsOpportunistic: true, suites: [suite])
        case .fixed(let shown):
            usesPIN = true;
            await pairing.setPolicy(password: Array(shown.utf8), allowsOpportunistic: false, suites: [suite])
        case .perRequest:
            usesPIN = true; await pairing.setPolicy(password: nil, allowsOpportunistic: false, suites: [suite])
        }
        let method: BootstrappingMethods = usesPIN ? .pinDisplay : .opportunistic
        // A PIN already on screen needs no confirmation: the request is accepted at once, without the comeback
        // round (its response, the 1000 TU delay, the request again). A PIN made per request is shown first.
        let shownAlready: Bool
        if case .perRequest = pin { shownAlready = false } else { shownAlready = true }
        await pairing.setBootstrapping(supported: method, autoAccept: shownAlready ? method : [])
        var configuration = PublishConfiguration(serviceID: serviceID)
        configuration.bootstrappingMethods = method
        let session: DiscoverySession = try await engine.publish(configuration)
        let forward = Task {
            for await event in session {
                guard case .messageReceived(let message) = event,
                    message.keyDescriptor != nil || message.bootstrapping != nil
                else { continue }
                link.route(message.peer, local: session.instanceID, peerInstanceID: message.peerInstanceID)
                if let request = message.bootstrapping {
                    await pairing.handle(bootstrapping: request, from: message.peer)
                }
                if let descriptor = message.keyDescriptor {
                    await pairing.handle(keyDescriptor: descriptor, from: message.peer)
                }
            }
        }
        defer { forward.cancel() }
        progress("waiting for a device to pair")
        for await event in pairing.events {
            switch event {
            case .paired(let device): await session.stop(); return (device, false)
            case .verified(let device): await session.stop(); return (device, true)
            case .failed(let peer, let error):
                let message = translate(error, peer: peer).message
                lastFailure.text = message
                progress("\(message); still waiting for a device to pair")
            case .bootstrappingRequested(let peer, _):
                if case .perRequest(let display) = pin {
                    // A fresh PIN for this device: on screen first, then its comeback is accepted.
                    let fresh = try randomPIN()
                    await pairing.setPolicy(password: Array(fresh.utf8), allowsOpportunistic: false, suites: [suite])
                    await display(fresh, peer)
                }
                await pairing.authorizeBootstrapping(peer)
            case .bootstrapped(let peer, let accepted):
                if accepted.contains(.pinDisplay), case .fixed = pin {
                    progress("\(peer) asks to pair: type the PIN shown here on it")
                }
                progress("bootstrapped with \(peer); pairing")
            }
        }
        throw CancellationError()
    }

    private static func initiate(
        peer wanted: MACAddress?, pin: TypedPIN, suite: NDPCipherSuite, serviceID: ServiceID, engine: NANEngine,
        pairing: PairingEngine, link: RuntimePairingLink,
        progress: @escaping @Sendable (String) -> Void
    ) async throws -> (keys: PairedDeviceKeys, verified: Bool) {
        let session: DiscoverySession = try await engine.subscribe(SubscribeConfiguration(serviceID: serviceID))
        let (discovered, sink) = AsyncStream<DiscoveryResult>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let forward = Task {
            for await event in session {
                switch event {
                case .discovered(let result):
                    guard wanted == nil || result.peer == wanted else { continue }
                    link.route(result.peer, local: session.instanceID, peerInstanceID: result.peerInstanceID)
                    sink.yield(result)
                case .messageReceived(let message):
                    if let answer = message.bootstrapping {
                        await pairing.handle(bootstrapping: answer, from: message.peer)
                    }
                    if let descriptor = message.keyDescriptor {
                        await pairing.handle(keyDescriptor: descriptor, from: message.peer)
                    }
                default:
                    continue
                }
            }
            sink.finish()
        }
        defer { forward.cancel() }
        progress(wanted.map { "looking for \($0) offering pairing" } ?? "looking for a device offering pairing")
        for await result in discovered {
            do {
                if case .none = pin, let nira = result.identityResolution,
                    let device = await pairing.resolve(nira, from: result.peer)
                {
                    progress("\(result.peer) is a paired device; verifying it with the stored key")
                    let verified = try await pairing.verify(
                        device.id, at: result.peer, publishID: result.peerInstanceID)
                    await session.stop()
                    return (verified, true)
                }
                let local: BootstrappingMethods
                if case .none = pin { local = .opportunistic } else { local = .pinKeypad }
                let advertised = result.bootstrappingMethods ?? local.complement
                progress("bootstrapping with \(result.peer)")
                _ = try await pairing.bootstrap(with: result.peer, localMethods: local, peerMethods: advertised)
                let method: PairingMethod
                switch pin {
                case .none: method = .opportunistic
                case .fixed(let typed): method = .password(Array(typed.utf8))
                case .asked(let entry): method = .password(Array(try await entry(result.peer).utf8))
                }
                progress("pairing with \(result.peer)")
                let device = try await pairing.pair(
                    with: result.peer, publishID: result.peerInstanceID, method: method, suite: suite)
                await session.stop()
                return (device, false)
            } catch let error as PairingError {
                throw translate(error, peer: result.peer)
            }
        }
        throw CancellationError()
    }

    static func translate(_ error: PairingError, peer: MACAddress? = nil) -> WAError {
        let with = peer.map { " with \($0)" } ?? ""
        let (failure, message): (WAPairingFailure, String) =
            switch error.code {
            case .wrongPassword: (.wrongPIN, "pairing\(with) failed: wrong PIN (the two PINs differ)")
            case .cipherSuiteMismatch:
                (
                    .cipherSuiteMismatch,
                    "pairing\(with) failed: cipher suite mismatch (\(error.detail)); use the same --cipher-suite on both sides"
                )
            case .timedOut: (.timedOut, "pairing\(with) timed out: \(error.detail)")
            case .rejected: (.refused, "pairing\(with) refused by the peer: \(error.detail)")
            case .methodMismatch:
                (.noCommonMethod, "pairing\(with) failed: no bootstrapping method fits both sides (\(error.detail))")
            default: (.other, "pairing\(with) failed: \(error)")
            }
        return WAError(.connectionFailed, message: message, underlying: error, pairingFailure: failure)
    }

    /// Runs `body`, failing with a "timed out" pairing error after `timeout`.
    private static func withDeadline<T: Sendable>(
        _ timeout: Duration, what: String, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw PairingError(.timedOut, "\(what) within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}
