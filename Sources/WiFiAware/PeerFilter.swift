import FoundationEssentials
import NANEngine
import NANWire

/// Which peers a session reports: the device selection resolved against the paired-device store, as a
/// lookup by NAN management address and, for devices paired by NAN pairing, by the NIRA their frames
/// carry (their NIK recomputes its tag over the frame's sender address), so a paired device is recognised
/// whatever its current, random NMI. Resolved when the session starts and again whenever the store changes.
struct PeerFilter: Sendable {
    /// The selection this filter applies.
    let selection: WADeviceSelection
    /// The chosen devices by address (for `.anyDevice`: every paired device, to name the peers).
    private(set) var devicesByAddress: [MACAddress: WAPairedDevice] = [:]
    /// The chosen devices that hold a NIK, by identity.
    private(set) var devicesByID: [WAPairedDevice.ID: WAPairedDevice] = [:]
    /// Their NIKs (at most 256: one HMAC per key per received NIRA).
    private(set) var resolver = IdentityResolver<WAPairedDevice.ID>()

    /// Resolves `selection` in a snapshot of the store.
    ///
    /// - Throws: what ``WADeviceSelection/resolve(in:)`` throws (`noPairedDevices`, `deviceInvalid`, ...).
    init(selection: WADeviceSelection, devices: WAPairedDevice.Devices) throws(WAError) {
        self.selection = selection
        index(try selection.resolve(in: devices) ?? devices)
    }

    /// Resolves the selection again after the store changed. A selection that no longer resolves (all
    /// devices removed, a selected device removed) admits only the devices still there, not everyone.
    mutating func update(devices: WAPairedDevice.Devices) {
        do {
            index(try selection.resolve(in: devices) ?? devices)
        } catch {
            index(selection.includesUnpairedDevices ? devices : [:])
        }
    }

    /// Whether events from the peer at `address`, whose frame carried `nira`, are reported.
    func admits(_ address: MACAddress, nira: IdentityResolutionAttribute? = nil) -> Bool {
        selection.includesUnpairedDevices || device(at: address, nira: nira) != nil
    }

    /// The selected paired device at this address, or the one `nira` (sent from `address`) resolves to.
    func device(at address: MACAddress, nira: IdentityResolutionAttribute? = nil) -> WAPairedDevice? {
        if let device = devicesByAddress[address] { return device }
        guard let nira, let id = resolver.resolve(nira, from: address), let device = devicesByID[id],
            device.identityKey(validAt: Date()) != nil
        else { return nil }  // an expired NIK names nobody
        return device
    }

    private mutating func index(_ devices: WAPairedDevice.Devices) {
        var byAddress: [MACAddress: WAPairedDevice] = [:]
        var byID: [WAPairedDevice.ID: WAPairedDevice] = [:]
        var resolver = IdentityResolver<WAPairedDevice.ID>()
        for device in devices.values.sorted(by: { $0.dateAdded > $1.dateAdded }) {
            for address in device.managementAddresses where byAddress[address] == nil { byAddress[address] = device }
            guard let key = device.identityKey, let nik = NANIdentityKey(bytes: key.bytes),
                (try? resolver.add(nik, for: device.id)) != nil
            else { continue }
            byID[device.id] = device
        }
        devicesByAddress = byAddress
        devicesByID = byID
        self.resolver = resolver
    }
}
