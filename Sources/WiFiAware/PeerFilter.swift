import NANWire

/// Which peers a session reports: the device selection resolved against the paired-device store, as a
/// lookup by NAN management address. Resolved when the session starts and again whenever the store changes.
struct PeerFilter: Sendable {
    /// The selection this filter applies.
    let selection: WADeviceSelection
    /// The chosen devices by address (for `.anyDevice`: every paired device, to name the peers).
    private(set) var devicesByAddress: [MACAddress: WAPairedDevice] = [:]

    /// Resolves `selection` in a snapshot of the store.
    ///
    /// - Throws: what ``WADeviceSelection/resolve(in:)`` throws (`noPairedDevices`, `deviceInvalid`, ...).
    init(selection: WADeviceSelection, devices: WAPairedDevice.Devices) throws(WAError) {
        self.selection = selection
        devicesByAddress = Self.index(try selection.resolve(in: devices) ?? devices)
    }

    /// Resolves the selection again after the store changed. A selection that no longer resolves (all
    /// devices removed, a selected device removed) admits only the devices still there, not everyone.
    mutating func update(devices: WAPairedDevice.Devices) {
        do {
            devicesByAddress = Self.index(try selection.resolve(in: devices) ?? devices)
        } catch {
            devicesByAddress = selection.includesUnpairedDevices ? Self.index(devices) : [:]
        }
    }

    /// Whether events from the peer at `address` are reported.
    func admits(_ address: MACAddress) -> Bool {
        selection.includesUnpairedDevices || devicesByAddress[address] != nil
    }

    /// The paired device with this address, if any (and selected).
    func device(at address: MACAddress) -> WAPairedDevice? { devicesByAddress[address] }

    private static func index(_ devices: WAPairedDevice.Devices) -> [MACAddress: WAPairedDevice] {
        var byAddress: [MACAddress: WAPairedDevice] = [:]
        for device in devices.values {
            for address in device.managementAddresses { byAddress[address] = device }
        }
        return byAddress
    }
}
