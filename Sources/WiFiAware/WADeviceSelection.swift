public import FoundationEssentials

/// Which peers a publisher or subscriber deals with, as in Apple's
/// `.connecting(to: service, from: .allPairedDevices)`.
///
/// ```swift
/// let kitchen = WADeviceSelection.matching(#Predicate { $0.name?.starts(with: "Kitchen") ?? false })
/// ```
///
/// Pass it to `WASystem.publish(_:to:parameters:)` or `WASystem.subscribe(to:from:parameters:)`.
public struct WADeviceSelection: Sendable {
    private enum Kind: Sendable {
        case allPairedDevices
        case selected([WAPairedDevice.ID])
        case matching(Predicate<WAPairedDevice>)
        case anyDevice
    }

    private let kind: Kind

    /// Every device in the paired-device store, as it changes.
    public static var allPairedDevices: WADeviceSelection { WADeviceSelection(kind: .allPairedDevices) }

    /// These devices only (looked up again in the store, so a removed device is noticed).
    ///
    /// - Parameter devices: The devices.
    public static func selected(_ devices: [WAPairedDevice]) -> WADeviceSelection {
        WADeviceSelection(kind: .selected(devices.map(\.id)))
    }

    /// The paired devices for which `predicate` is true, as the store changes.
    ///
    /// - Parameter predicate: The test, e.g. `#Predicate { $0.name?.starts(with: "Kitchen") ?? false }`.
    public static func matching(_ predicate: Predicate<WAPairedDevice>) -> WADeviceSelection {
        WADeviceSelection(kind: .matching(predicate))
    }

    /// Any device in range, paired or not. Linux only: Apple restricts sessions to paired devices,
    /// but open discovery is how Linux and Android peers meet before pairing exists.
    public static var anyDevice: WADeviceSelection { WADeviceSelection(kind: .anyDevice) }

    /// Whether this selection accepts unpaired devices (``anyDevice``).
    public var includesUnpairedDevices: Bool {
        if case .anyDevice = kind { return true }
        return false
    }

    /// The paired devices this selection picks from a snapshot of the store.
    ///
    /// - Parameter devices: The store's devices now.
    /// - Returns: The chosen devices, or `nil` for ``anyDevice`` (no restriction).
    /// - Throws: ``WAError/Code/noPairedDevices`` if the store is empty (except for ``anyDevice``);
    ///   ``WAError/Code/deviceInvalid`` if a selected device is no longer paired;
    ///   ``WAError/Code/invalidArgument`` if the predicate cannot be evaluated.
    public func resolve(in devices: WAPairedDevice.Devices) throws(WAError) -> WAPairedDevice.Devices? {
        if case .anyDevice = kind { return nil }
        guard !devices.isEmpty else {
            throw WAError(.noPairedDevices)
        }
        switch kind {
        case .anyDevice:
            return nil
        case .allPairedDevices:
            return devices
        case .selected(let ids):
            guard !ids.isEmpty else {
                throw WAError(.invalidArgument, message: "the device selection is empty; select at least one device")
            }
            var chosen: WAPairedDevice.Devices = [:]
            for id in ids {
                guard let device = devices[id] else {
                    throw WAError(
                        .deviceInvalid,
                        message: "selected device \(id) is no longer paired; list devices with `waware devices list`")
                }
                chosen[id] = device
            }
            return chosen
        case .matching(let predicate):
            do {
                return try devices.filter { try predicate.evaluate($0.value) }
            } catch {
                throw WAError(
                    .invalidArgument, message: "the device predicate could not be evaluated: \(error)",
                    underlying: error)
            }
        }
    }
}
