import NANSystem
public import NANWire

/// A NAN data interface up on an adapter and the peers it carries data paths to, as the kernel reports
/// them: what `waware data-paths` lists, whichever process owns them.
public struct WADataInterfaceStatus: Hashable, Sendable {
    /// A peer NDI station on the interface.
    public struct Peer: Hashable, Sendable {
        /// The peer's NDI address.
        public var address: MACAddress
        /// Signal of its last frame (dBm), if known.
        public var signal: Int?
        /// Bytes received from it.
        public var receivedBytes: UInt64?
        /// Bytes sent to it.
        public var transmittedBytes: UInt64?
        /// Milliseconds since it was last heard.
        public var inactiveMilliseconds: UInt32?
    }

    /// The adapter's phy name.
    public var adapter: String
    /// The netdev name, e.g. `nan0data`.
    public var name: String
    /// Its address (our NDI address).
    public var address: MACAddress?
    /// The peers with data paths over it.
    public var peers: [Peer]
}

extension WASystem {
    /// The NAN data interfaces up on one adapter (or on every adapter when `adapter` is nil), with their peers.
    ///
    /// - Throws: ``WAError`` (`adapterNotFound`, `kernel`, `permissionDenied`).
    public static func dataInterfaces(adapter: String? = nil) async throws(WAError) -> [WADataInterfaceStatus] {
        do {
            return try await NL80211.withSession { session in
                let adapters = try await session.adapters()
                let chosen = try adapter.map { [try select($0, from: adapters)] } ?? adapters
                var result: [WADataInterfaceStatus] = []
                for phy in chosen {
                    for interface in phy.interfaces where interface.type == .nanData {
                        guard let index = interface.index else { continue }
                        let stations = (try? await session.stations(on: index)) ?? []
                        result.append(
                            WADataInterfaceStatus(
                                adapter: phy.name, name: interface.name ?? "?", address: interface.address,
                                peers: stations.map {
                                    WADataInterfaceStatus.Peer(
                                        address: $0.peer, signal: $0.signalDBM.map(Int.init),
                                        receivedBytes: $0.receivedBytes, transmittedBytes: $0.transmittedBytes,
                                        inactiveMilliseconds: $0.inactiveMilliseconds)
                                }))
                    }
                }
                return result
            }
        } catch let error as WAError {
            throw error
        } catch {
            throw WAError.from(error, while: "list NAN data interfaces")
        }
    }
}
