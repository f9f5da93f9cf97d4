internal import FoundationEssentials
import NANEngine
import NANWire
internal import Synchronization

/// Whose data-path requests a publisher accepting only paired devices takes: the device selection
/// resolved against the store as it is when each request arrives, so a device paired after the
/// publisher started, or verified at a new random NMI since, is admitted, and an unpaired one is not.
///
/// Each check reads the store file (bounded by the store's own size limit) and decodes it again only when
/// its bytes changed. A store that cannot be read keeps the last good answer; a selection that no longer
/// resolves (every device removed, a selected device unpaired) admits the devices still chosen, if any.
final class PairedDataPathAdmission: Sendable {
    private let store: WADeviceStore
    private let selection: WADeviceSelection
    /// The store's bytes at the last read (`nil` inside: no file) and the addresses they admit.
    private let cache = Mutex<(data: Data??, admitted: Set<MACAddress>)>((nil, []))

    /// Admission for `selection` (a selection of paired devices) in `store`.
    init(store: WADeviceStore, selection: WADeviceSelection) {
        self.store = store
        self.selection = selection
    }

    /// Whether the peer at NMI `address` is a chosen paired device now.
    func admits(_ address: MACAddress) -> Bool {
        cache.withLock { cache in
            let data: Data?
            do { data = try store.readData() } catch { return cache.admitted.contains(address) }
            if let last = cache.data, last == data { return cache.admitted.contains(address) }
            let devices: WAPairedDevice.Devices
            if let data {
                guard let decoded = try? DeviceStoreFile.decode(data) else { return cache.admitted.contains(address) }
                devices = decoded
            } else {
                devices = [:]
            }
            cache.data = .some(data)
            let chosen = (try? selection.resolve(in: devices)) ?? nil
            cache.admitted = Set((chosen ?? [:]).values.flatMap(\.managementAddresses))
            return cache.admitted.contains(address)
        }
    }

    /// The engine's admission, asking this one at each request.
    var dataPathAdmission: DataPathAdmission {
        .checking { [self] address in admits(address) }
    }
}
