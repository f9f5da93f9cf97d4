extension WADeviceStore {
    /// Pins `fingerprint` to the paired device `id` (its TLS certificate, see ``WAConnectionTrust``): stores
    /// it in the device's entry unless one is pinned already. Two connections learning at once end with the
    /// first one's pin; the other is refused.
    ///
    /// - Returns: The device with its pin.
    /// - Throws: ``WAError/Code/deviceInvalid`` if the device is no longer in the store;
    ///   ``WAError/Code/connectionFailed`` if another certificate was pinned to it meanwhile; a store error
    ///   otherwise.
    @discardableResult
    public func pinCertificate(
        _ fingerprint: WACertificateFingerprint, to id: WAPairedDevice.ID
    ) throws(WAError) -> WAPairedDevice {
        try modify { (devices: inout WAPairedDevice.Devices) throws(WAError) -> WAPairedDevice in
            guard var device = devices[id] else {
                throw WAError(
                    .deviceInvalid, message: "device \(id) is no longer paired; its certificate was not pinned")
            }
            if let pinned = device.certificateFingerprint {
                guard pinned == fingerprint else {
                    throw WAError(
                        .connectionFailed,
                        message:
                            "paired device '\(device.displayName)' got certificate \(pinned) pinned meanwhile, not \(fingerprint)"
                    )
                }
                return device
            }
            device.certificateFingerprint = fingerprint
            devices[id] = device
            return device
        }
    }
}
