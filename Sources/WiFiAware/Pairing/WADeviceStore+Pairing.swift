public import FoundationEssentials
public import NANWire
internal import NANEngine

extension WADeviceStore {
    /// The most management addresses kept per device: a paired device met under many random NMIs keeps
    /// the newest ones.
    public static let maximumAddressesPerDevice = 8

    /// This machine's own NAN Identity Key, made (and stored) on first use; paired peers recognise us by
    /// it whatever our NMI.
    ///
    /// - Throws: a store error.
    public func ownIdentityKey() throws(WAError) -> WAPairedDevice.IdentityKey {
        try modifyStore {
            (
                _: inout WAPairedDevice.Devices, own: inout WAPairedDevice.IdentityKey?
            ) throws(WAError) -> WAPairedDevice.IdentityKey in
            if let own { return own }
            let fresh: NANIdentityKey
            do { fresh = try NANIdentityKey.random() } catch {
                throw WAError(.storageFailed, message: "no random bytes for an identity key: \(error)")
            }
            let key = try WAPairedDevice.IdentityKey(bytes: fresh.bytes)
            own = key
            return key
        }
    }

    /// This machine's own NAN Identity Key if one was made (by a NAN pairing); nil otherwise. Makes none.
    ///
    /// - Throws: a store error.
    public func existingOwnIdentityKey() throws(WAError) -> WAPairedDevice.IdentityKey? {
        guard let data = try readData() else { return nil }
        do throws(DeviceStoreFile.Problem) {
            return try DeviceStoreFile.decodeStore(data).ownIdentity
        } catch {
            throw WAError(.deviceStoreCorrupt, message: "the device store \(url.path) cannot be read: \(error)")
        }
    }

    /// Records a finished NAN pairing. The device with the same identity key gets the new keys and the
    /// address first in its list; failing that, a hand-typed entry (one holding no key) with the address
    /// becomes a verified one; otherwise a new device named `name` is added. The address is the peer's
    /// choice and heard on the air, so it never hands over a keyed entry: a pairing with a new identity at a
    /// keyed device's address makes a new entry, and the address leaves the keyed one.
    ///
    /// - Throws: ``WAError/Code/invalidArgument`` for a bad or taken name, or when the address is the only
    ///   one of another keyed device (unpair that device first); a store error otherwise.
    @discardableResult
    public func recordPairing(
        name: String, managementAddress: MACAddress, identityKey: WAPairedDevice.IdentityKey?,
        pairingKey: WAPairedDevice.PairingKey, pairingInfo: WAPairedDevice.PairingInfo? = nil,
        identityKeyLifetime: Duration? = nil
    ) throws(WAError) -> WAPairedDevice {
        try WAPairedDevice.validateName(name)
        let expiry = identityKeyLifetime.map { Date().addingTimeInterval(Double($0.components.seconds)) }
        return try modify { (devices: inout WAPairedDevice.Devices) throws(WAError) -> WAPairedDevice in
            let existing =
                devices.values.first { identityKey != nil && $0.identityKey == identityKey }
                ?? devices.values.first { $0.holdsNoKey && $0.managementAddresses.contains(managementAddress) }
            if var device = existing {
                try Self.takeAddress(managementAddress, for: device.id, from: &devices)
                device.managementAddresses = Array(
                    ([managementAddress] + device.managementAddresses.filter { $0 != managementAddress })
                        .prefix(Self.maximumAddressesPerDevice))
                if let identityKey {
                    device.identityKey = identityKey
                    device.identityKeyExpiry = expiry
                }
                device.pairingKey = pairingKey
                device.certificateFingerprint = nil  // a new pairing: the TLS pin is learned again over it
                if let pairingInfo { device.pairingInfo = pairingInfo }
                devices[device.id] = device
                return device
            }
            if devices.values.contains(where: {
                WAPairedDevice.lookalikeKey($0.displayName) == WAPairedDevice.lookalikeKey(name)
            }) {
                throw WAError(
                    .invalidArgument, message: "a paired device is already named '\(name)'; choose another name")
            }
            var device = WAPairedDevice(
                id: WAPairedDevice.ID(UUID()), displayName: name, pairingInfo: pairingInfo,
                managementAddresses: [managementAddress], identityKey: identityKey, dateAdded: Date())
            try Self.takeAddress(managementAddress, for: device.id, from: &devices)
            device.pairingKey = pairingKey
            device.identityKeyExpiry = identityKey == nil ? nil : expiry
            devices[device.id] = device
            return device
        }
    }

    /// Moves `address` to the device `id` (an address belongs to one device): it leaves every other entry,
    /// and a hand-typed entry left with no address goes. A keyed entry keeps its key, name and pin; one whose
    /// only address this is stays whole, and the pairing is refused.
    private static func takeAddress(
        _ address: MACAddress, for id: WAPairedDevice.ID, from devices: inout WAPairedDevice.Devices
    ) throws(WAError) {
        for (other, entry) in devices where other != id && entry.managementAddresses.contains(address) {
            let left = entry.managementAddresses.filter { $0 != address }
            if left.isEmpty && !entry.holdsNoKey {
                throw WAError(
                    .invalidArgument,
                    message: "\(address) is the address of paired device '\(entry.displayName)' (\(entry.id)), "
                        + "and this pairing did not prove to be that device; unpair '\(entry.displayName)' first if it is"
                )
            }
            devices[other]?.managementAddresses = left
            if left.isEmpty { devices[other] = nil }
        }
    }

    /// Notes that a paired device (recognised from its NIRA) now uses `address`: it goes first in the
    /// device's list (the list keeps ``maximumAddressesPerDevice``), and it was seen now.
    ///
    /// - Throws: ``WAError/Code/deviceInvalid`` if the device is not in the store; a store error otherwise.
    @discardableResult
    public func noteAddress(_ address: MACAddress, of id: WAPairedDevice.ID) throws(WAError) -> WAPairedDevice {
        try modify { (devices: inout WAPairedDevice.Devices) throws(WAError) -> WAPairedDevice in
            guard var device = devices[id] else { throw WAError(.deviceInvalid, message: "device \(id) is not paired") }
            for (other, entry) in devices where other != id && entry.managementAddresses.contains(address) {
                devices[other]?.managementAddresses.removeAll { $0 == address }
                if devices[other]?.managementAddresses.isEmpty == true { devices[other] = nil }
            }
            device.managementAddresses = Array(
                ([address] + device.managementAddresses.filter { $0 != address }).prefix(Self.maximumAddressesPerDevice)
            )
            device.dateLastSeen = Date()
            devices[id] = device
            return device
        }
    }

    /// Notes that a paired device was recognised at `date` (``WAPairedDevice/dateLastSeen``). A device no
    /// longer in the store is skipped (it was unpaired meanwhile), not an error.
    ///
    /// - Throws: a store error.
    public func noteSeen(_ id: WAPairedDevice.ID, at date: Date = Date()) throws(WAError) {
        try modify { (devices: inout WAPairedDevice.Devices) throws(WAError) in
            devices[id]?.dateLastSeen = date
        }
    }
}
