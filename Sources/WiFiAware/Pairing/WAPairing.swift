public import FoundationEssentials
public import NANWire
import NANCrypto
import NANEngine
import NANSystem

/// NAN pairing between two devices (Wi-Fi Aware 4.0 pairing setup over PASN): one side publishes a
/// pairing service and accepts a PIN it shows (``Role/accept(pin:)``), the other subscribes and pairs with
/// the first publisher it finds using the PIN its user typed (``Role/initiate(pin:)``); with no PIN both
/// pair opportunistically. The NIKs are exchanged and the result is recorded in the paired-devices store
/// with its keys (``WADeviceStore/recordPairing(name:managementAddress:identityKey:pairingKey:pairingInfo:)``).
/// Our publish and subscribe frames carry our NIRA, so paired peers recognise us.
///
/// The bootstrapping exchange (NPBA) is not run: both users agree on the PIN out of band.
public enum WAPairing {
    /// The service the two sides meet on unless told otherwise.
    public static let defaultServiceName = "_waware-pair._udp"

    /// Which side this device takes.
    public enum Role: Sendable {
        /// Publish and accept pairing with `pin` (show it to the user); opportunistic when nil.
        case accept(pin: String?)
        /// Subscribe and pair with the first publisher found, with `pin` (typed by the user); opportunistic when nil.
        case initiate(pin: String?)
    }

    /// Six random decimal digits, for the accepting side to show.
    public static func randomPIN() throws(WAError) -> String {
        let bytes: [UInt8]
        do { bytes = try SecureRandom.bytes(8) } catch { throw WAError(.storageFailed, message: "no random bytes for a PIN: \(error)") }
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 1_000_000
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Pairs as `role` on `adapter` and returns the paired device as stored.
    ///
    /// - Parameters:
    ///   - adapter: A phy name, wiphy index or interface name; nil takes the only NAN adapter.
    ///   - role: Accept (publish) or initiate (subscribe).
    ///   - serviceName: The service both sides use.
    ///   - deviceName: The name to store the peer under (default `NAN <address>`).
    ///   - store: The paired-devices store (our NIK is kept there too).
    ///   - timeout: How long to wait for the peer and the exchange.
    ///   - progress: Called with one line at each step (peer found, pairing started).
    /// - Throws: ``WAError``: `connectionFailed` with "wrong PIN", "timed out" or "refused" in its message,
    ///   `wifiAwareUnsupported` when the radio does not pass Authentication frames to user space, and the
    ///   usual adapter and store errors.
    public static func run(
        adapter: String?, role: Role, serviceName: String = defaultServiceName, deviceName: String? = nil,
        store: WADeviceStore = .default, timeout: Duration = .seconds(60), progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> WAPairedDevice {
        let chosen: Adapter
        do {
            let adapters = try await NL80211.withSession { session in try await session.adapters() }
            chosen = try WASystem.select(adapter, from: adapters)
        } catch {
            throw WAError.from(error, while: "list Wi-Fi adapters")
        }
        let own = try store.ownIdentityKey()
        guard let identity = NANIdentityKey(bytes: own.bytes) else { throw WAError(.deviceStoreCorrupt, message: "our identity key is not 16 bytes") }
        let serviceID: ServiceID
        do { serviceID = try ServiceID(serviceName: serviceName) } catch {
            throw WAError(.invalidServiceName, message: "'\(serviceName)' is not a service name: \(error)")
        }
        let found: PairedDeviceKeys
        do {
            found = try await NANRuntime.run(on: chosen) { runtime in
                let frames: AsyncThrowingStream<NL80211Event, any Error>
                do { frames = try await runtime.events(for: PairingEngine.runtimeInterest) } catch {
                    throw WAError(.wifiAwareUnsupported, message: "\(chosen.name) does not pass Authentication frames to user space, so NAN pairing cannot run on it (\(error))")
                }
                return try await NANEngine.run(on: runtime) { engine in
                    try await runtime.start(NANStartOptions())
                    guard let cluster = await runtime.waitForCluster(timeout: .seconds(10)) else { throw DiscoveryError.noCluster }
                    let link = RuntimePairingLink(runtime: runtime, engine: engine)
                    let pairing = PairingEngine(localAddress: runtime.localAddress, cluster: cluster, identity: identity, link: link,
                                                limits: .init(attemptLifetime: timeout))
                    await engine.setIdentityResolution(try identity.identityResolution(nmi: runtime.localAddress))
                    let server = Task { try? await pairing.serve(frames) }
                    defer { server.cancel() }
                    return try await withDeadline(timeout, what: "no peer paired") {
                        switch role {
                        case .accept(let pin):
                            return try await accept(pin: pin, serviceID: serviceID, engine: engine, pairing: pairing, link: link, progress: progress)
                        case .initiate(let pin):
                            return try await initiate(pin: pin, serviceID: serviceID, engine: engine, pairing: pairing, link: link, progress: progress)
                        }
                    }
                }
            }
        } catch let error as WAError {
            throw error
        } catch let error as PairingError {
            throw translate(error)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw WAError.from(error, while: "pair on \(chosen.name)")
        }
        guard let pairingKey = try? WAPairedDevice.PairingKey(bytes: found.pairing.npk, method: found.pairing.akm == .sae ? .sae : .pasn) else {
            throw WAError(.connectionFailed, message: "pairing gave no usable key")
        }
        let nik = try found.nik.map { nik throws(WAError) in try WAPairedDevice.IdentityKey(bytes: nik.bytes) }
        return try store.recordPairing(name: deviceName ?? "NAN \(found.lastAddress)", managementAddress: found.lastAddress,
                                       identityKey: nik, pairingKey: pairingKey)
    }

    private static func accept(pin: String?, serviceID: ServiceID, engine: NANEngine, pairing: PairingEngine, link: RuntimePairingLink,
                               progress: @escaping @Sendable (String) -> Void) async throws -> PairedDeviceKeys {
        await pairing.setPolicy(password: pin.map { Array($0.utf8) }, allowsOpportunistic: pin == nil)
        let session: DiscoverySession = try await engine.publish(PublishConfiguration(serviceID: serviceID))
        let forward = Task {
            for await event in session {
                guard case .messageReceived(let message) = event, let descriptor = message.keyDescriptor else { continue }
                link.route(message.peer, local: session.instanceID, peerInstanceID: message.peerInstanceID)
                await pairing.handle(keyDescriptor: descriptor, from: message.peer)
            }
        }
        defer { forward.cancel() }
        progress("waiting for a device to pair")
        for await event in pairing.events {
            switch event {
            case .paired(let device): await session.stop(); return device
            case .failed(let peer, let error): throw translate(error, peer: peer)
            case .verified: continue
            }
        }
        throw CancellationError()
    }

    private static func initiate(pin: String?, serviceID: ServiceID, engine: NANEngine, pairing: PairingEngine, link: RuntimePairingLink,
                                 progress: @escaping @Sendable (String) -> Void) async throws -> PairedDeviceKeys {
        let session: DiscoverySession = try await engine.subscribe(SubscribeConfiguration(serviceID: serviceID))
        let (discovered, sink) = AsyncStream<DiscoveryResult>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let forward = Task {
            for await event in session {
                switch event {
                case .discovered(let result):
                    link.route(result.peer, local: session.instanceID, peerInstanceID: result.peerInstanceID)
                    sink.yield(result)
                case .messageReceived(let message):
                    if let descriptor = message.keyDescriptor { await pairing.handle(keyDescriptor: descriptor, from: message.peer) }
                default:
                    continue
                }
            }
            sink.finish()
        }
        defer { forward.cancel() }
        progress("looking for a device offering pairing")
        for await result in discovered {
            progress("pairing with \(result.peer)")
            do {
                let device = try await pairing.pair(with: result.peer, publishID: result.peerInstanceID,
                                                     method: pin.map { .password(Array($0.utf8)) } ?? .opportunistic)
                await session.stop()
                return device
            } catch {
                throw translate(error, peer: result.peer)
            }
        }
        throw CancellationError()
    }

    private static func translate(_ error: PairingError, peer: MACAddress? = nil) -> WAError {
        let with = peer.map { " with \($0)" } ?? ""
        switch error.code {
        case .wrongPassword: return WAError(.connectionFailed, message: "pairing\(with) failed: wrong PIN (the two PINs differ)")
        case .timedOut: return WAError(.connectionFailed, message: "pairing\(with) timed out: \(error.detail)")
        case .rejected: return WAError(.connectionFailed, message: "pairing\(with) refused by the peer: \(error.detail)")
        default: return WAError(.connectionFailed, message: "pairing\(with) failed: \(error)")
        }
    }

    /// Runs `body`, failing with a "timed out" pairing error after `timeout`.
    private static func withDeadline<T: Sendable>(_ timeout: Duration, what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
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
