public import NANWire
import NANEngine
import NANSystem
internal import Synchronization

/// What happened when this system verified a paired device with its stored pairing key (PASN keyed by the
/// NPK, in either role, without the user): ``WASystem/verifications()``.
public enum WAVerificationEvent: Sendable, Hashable, CustomStringConvertible {
    /// The device proved it holds the pairing key; it is at `address` now (the store notes it there, and
    /// data paths keyed by pairing can be made with it).
    case verified(WAPairedDevice, address: MACAddress)
    /// The device at `address` failed verification (another pairing key, an altered frame, no answer): it is
    /// not treated as paired, and a data path keyed by pairing with it is refused.
    case failed(address: MACAddress, reason: String)

    /// `verified Kitchen at 4a:…` or `not paired: 4a:… failed verification (…)`.
    public var description: String {
        switch self {
        case .verified(let device, let address): "verified \(device.displayName) at \(address)"
        case .failed(let address, let reason): "not paired: \(address) failed verification (\(reason))"
        }
    }
}

extension WASystem {
    /// How long one verification may take: its three PASN frames each wait for a discovery window and
    /// their acknowledgement (up to 3 × 8 s each when not acknowledged), and an emulated radio on a loaded
    /// machine is slow (in the VM at load 25 one took over 30 s).
    static let verificationLifetime: Duration = .seconds(120)

    /// Verification outcomes from now on, in order, until the system ends: those this system started
    /// (``WADataPathSecurity/pairing`` data paths, sessions that select paired devices) and those paired
    /// peers started with it.
    public func verifications() -> AsyncStream<WAVerificationEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: WAVerificationEvent.self, bufferingPolicy: .bufferingNewest(64))
        let key = verificationListeners.withLock { listeners in
            listeners.next += 1
            listeners.sinks[listeners.next] = continuation
            return listeners.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.verificationListeners.withLock { $0.sinks.removeValue(forKey: key) }
        }
        return stream
    }

    /// Makes the pairing engine of a device that has paired: it answers verifications of its stored
    /// pairings (no new pairing setup: that is `WAPairing`), and runs ours; its outcomes go to the store
    /// (the address a verified device was seen at) and to ``verifications()``.
    func startPairing(
        identity: NANIdentityKey, runtime: NANRuntime, engine: NANEngine,
        frames: AsyncThrowingStream<NL80211Event, any Error>
    ) {
        let known = ((try? store.devices())?.values.compactMap(WAPairing.pairedKeys)) ?? []
        let link = RuntimePairingLink(runtime: runtime, engine: engine)
        let engine = PairingEngine(
            localAddress: runtime.localAddress, cluster: runtime.cluster ?? runtime.localAddress, identity: identity,
            link: link, devices: known, limits: .init(attemptLifetime: Self.verificationLifetime),
            dataPathKeys: pairedDataPathKeys, logger: runtime.logger)
        pairing.withLock { $0 = engine }
        _ = startTask { try? await engine.serve(frames) }
        // A device paired (or unpaired) by another process while this system runs: the engine learns it.
        let store = store
        _ = startTask {
            var updates = store.allDevices.makeAsyncIterator()
            while let devices = try? await updates.next() {
                let held = await engine.pairedDevices
                await engine.replaceDevices(
                    devices.values.compactMap { device in
                        guard var record = WAPairing.pairedKeys(device) else { return nil }
                        // Keep the id the engine knows the device by (an address it had when first read).
                        if let known = held.first(where: { device.managementAddresses.contains($0.id) }) {
                            record = PairedDeviceKeys(
                                id: known.id, lastAddress: known.lastAddress, nik: record.nik,
                                pairing: record.pairing, nikLifetime: known.nikLifetime)
                        }
                        return record
                    })
            }
        }
        _ = startTask { [weak self] in
            for await event in engine.events {
                guard let self else { return }
                switch event {
                case .verified(let keys): self.report(verified: keys)
                case .failed(let peer, let error): self.broadcast(.failed(address: peer, reason: "\(error)"))
                default: continue
                }
            }
        }
    }

    /// Verifies the paired device behind `endpoint` with its stored pairing key (PASN, no user), which
    /// leaves a fresh ND-PMK for a data path with it.
    ///
    /// - Throws: ``WAError/Code/deviceInvalid`` when the endpoint is not a paired device with a pairing key
    ///   (or this device never paired), ``WAError/Code/connectionFailed`` when verification fails.
    func verify(_ endpoint: WAEndpoint) async throws(WAError) -> WAPairedDevice {
        guard let engine = pairing.withLock({ $0 }) else {
            throw WAError(
                .deviceInvalid,
                message:
                    "this device has no pairing (pair first with `waware pair`), so no data path can be keyed by one")
        }
        let devices = try store.devices()
        let records = await engine.pairedDevices
        guard
            let device = endpoint.device
                ?? devices.values.first(where: { $0.managementAddresses.contains(endpoint.address) }),
            device.pairingKey != nil,
            let record = records.first(where: { device.managementAddresses.contains($0.id) })
        else {
            broadcast(.failed(address: endpoint.address, reason: "no pairing key stored for it"))
            throw WAError(
                .deviceInvalid,
                message:
                    "\(endpoint.address) is not a paired device with a pairing key: pair with it first (`waware pair`), or use a passphrase"
            )
        }
        do {
            _ = try await engine.verify(record.id, at: endpoint.address, publishID: endpoint.instanceID)
        } catch {
            let hint =
                error.code == .timedOut
                ? "the peer did not answer: is it running, and has it paired with us?"
                : "not paired: the two devices hold different pairing keys; pair them again"
            throw WAError(
                .connectionFailed,
                message: "\(device.displayName) (\(endpoint.address)) failed pairing verification: \(error) (\(hint))")
        }
        return (try? store.devices())?[device.id] ?? device
    }

    private func report(verified keys: PairedDeviceKeys) {
        guard let devices = try? store.devices(),
            let device = devices.values.first(where: {
                $0.managementAddresses.contains(keys.id) || $0.managementAddresses.contains(keys.lastAddress)
            })
        else { return }
        let noted = (try? store.noteAddress(keys.lastAddress, of: device.id)) ?? device
        broadcast(.verified(noted, address: keys.lastAddress))
    }

    func broadcast(_ event: WAVerificationEvent) {
        let sinks = verificationListeners.withLock { Array($0.sinks.values) }
        for sink in sinks { sink.yield(event) }
    }
}
