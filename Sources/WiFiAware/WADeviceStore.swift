public import FoundationEssentials
internal import NANSystem
public import NANWire

/// The persistent store of paired devices: a JSON file, mode 0600, in a folder created 0700.
///
/// The default file is the first of:
/// 1. `$WAWARE_STATE_DIR/devices.json`, if `WAWARE_STATE_DIR` is set,
/// 2. `/var/lib/waware/devices.json` when running as root,
/// 3. `$XDG_STATE_HOME/waware/devices.json` (default `~/.local/state/waware/devices.json`).
///
/// Changes are safe between threads and processes: each takes an exclusive lock on the sibling
/// file `devices.json.lock`, reads the current file, and replaces it atomically (write a temporary
/// file, fsync, rename), so a reader sees the old store or the new one, never half of one.
///
/// A file that is not a waware store, or is damaged, is never overwritten: reading it throws
/// ``WAError/Code/deviceStoreCorrupt``, and the next change moves it aside to
/// `devices.json.corrupt-<time>` (and throws, saying so) before starting an empty store.
///
/// The methods block the calling thread for file I/O; they are meant for short, occasional use.
public struct WADeviceStore: Sendable {
    /// The store's file.
    public let url: URL

    /// How long a change waits for another process that holds the store's lock (default 30 s).
    public var lockTimeout: Duration = FileLock.defaultTimeout

    /// Called once, with the lock file's path, when a change has to wait for another process's lock
    /// (so a program can say why nothing happens). `nil`: wait silently.
    public var lockWaitNotice: (@Sendable (String) -> Void)?

    /// The largest store file read, in bytes (a hand-edited file beyond it is refused, not read).
    static let maximumFileSize = 4 << 20

    /// Opens the store at an explicit path. Nothing is read or created until it is used.
    ///
    /// - Parameter url: The store's file, e.g. `/tmp/test/devices.json`.
    public init(url: URL) {
        self.url = url.standardizedFileURL
    }

    /// The store at the default location for this process.
    public static var `default`: WADeviceStore {
        WADeviceStore(url: defaultURL())
    }

    /// The default store file (see the type's documentation for the order).
    ///
    /// - Parameters:
    ///   - environment: Where to read `WAWARE_STATE_DIR`, `XDG_STATE_HOME` and `HOME`.
    ///   - isRoot: Whether to use the system-wide location.
    /// - Returns: The store's file.
    public static func defaultURL(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isRoot: Bool = runningAsRoot
    ) -> URL {
        if let directory = environment["WAWARE_STATE_DIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent("devices.json")
        }
        if !isRoot, let state = XDGDirectory.state.base(in: environment) {
            return state.appendingPathComponent("waware/devices.json")
        }
        return URL(fileURLWithPath: "/var/lib/waware/devices.json")
    }

    /// Whether this process runs as root (effective user id 0); the default of `defaultURL`'s `isRoot`.
    @usableFromInline static var runningAsRoot: Bool { ProcessIdentity.isRoot }

    // MARK: Reading

    /// The paired devices now.
    ///
    /// - Returns: Every device, keyed by id; empty if the store does not exist yet.
    /// - Throws: ``WAError/Code/deviceStoreCorrupt``, ``WAError/Code/permissionDenied`` or ``WAError/Code/storageFailed``.
    public func devices() throws(WAError) -> WAPairedDevice.Devices {
        guard let data = try readData() else { return [:] }
        do throws(DeviceStoreFile.Problem) {
            return try DeviceStoreFile.decode(data)
        } catch {
            throw unreadable(error, movedTo: nil)
        }
    }

    /// Finds one device by what a user would type: its id, a unique start of its id, or its exact name.
    ///
    /// - Parameter reference: An id, id prefix (at least 4 characters) or name.
    /// - Returns: The device.
    /// - Throws: ``WAError/Code/deviceInvalid`` if nothing or more than one device matches.
    public func device(identifiedBy reference: String) throws(WAError) -> WAPairedDevice {
        try Self.find(reference, in: devices())
    }

    // MARK: Changing

    /// Adds a device.
    ///
    /// - Parameters:
    ///   - name: A user-visible name, unique in this store (1-64 bytes of UTF-8).
    ///   - managementAddresses: The peer's NAN management addresses, as seen in a discovery result; at least one.
    ///   - pairingInfo: What the peer says about itself, if known.
    /// - Returns: The new device.
    /// - Throws: ``WAError/Code/invalidArgument`` for a bad name or address, or one already in use;
    ///   a store error otherwise.
    @discardableResult
    public func add(
        name: String, managementAddresses: [MACAddress], pairingInfo: WAPairedDevice.PairingInfo? = nil
    ) throws(WAError) -> WAPairedDevice {
        try WAPairedDevice.validateName(name)
        guard !managementAddresses.isEmpty else {
            throw WAError(.invalidArgument, message: "a paired device needs at least one management address")
        }
        for address in managementAddresses where isGroupAddress(address) {
            throw WAError(
                .invalidArgument,
                message:
                    "\(address) is a multicast or broadcast address; use the peer's own address from a discovery result"
            )
        }
        let unique = managementAddresses.reduce(into: [MACAddress]()) { if !$0.contains($1) { $0.append($1) } }
        return try modify { (devices: inout WAPairedDevice.Devices) throws(WAError) -> WAPairedDevice in
            try Self.checkNameIsFree(name, in: devices, except: nil)
            for address in unique {
                if let owner = devices.values.first(where: { $0.managementAddresses.contains(address) }) {
                    throw WAError(
                        .invalidArgument,
                        message: "\(address) already belongs to paired device '\(owner.displayName)' (\(owner.id))")
                }
            }
            let device = WAPairedDevice(
                id: WAPairedDevice.ID(UUID()), displayName: name, pairingInfo: pairingInfo,
                managementAddresses: unique, identityKey: nil, dateAdded: Date())
            devices[device.id] = device
            return device
        }
    }

    /// Removes a device.
    ///
    /// - Parameter id: The device's id.
    /// - Returns: The device as it was.
    /// - Throws: ``WAError/Code/deviceInvalid`` if it is not in the store; a store error otherwise.
    @discardableResult
    public func remove(_ id: WAPairedDevice.ID) throws(WAError) -> WAPairedDevice {
        try modify { (devices: inout WAPairedDevice.Devices) throws(WAError) -> WAPairedDevice in
            guard let device = devices.removeValue(forKey: id) else {
                throw Self.notPaired(id)
            }
            return device
        }
    }

    /// Gives a device a new user-visible name.
    ///
    /// - Parameters:
    ///   - id: The device's id.
    ///   - name: The new name, unique in this store.
    /// - Returns: The renamed device.
    /// - Throws: ``WAError/Code/deviceInvalid`` if it is not in the store, ``WAError/Code/invalidArgument``
    ///   for a bad or taken name; a store error otherwise.
    @discardableResult
    public func rename(_ id: WAPairedDevice.ID, to name: String) throws(WAError) -> WAPairedDevice {
        try WAPairedDevice.validateName(name)
        return try modify { (devices: inout WAPairedDevice.Devices) throws(WAError) -> WAPairedDevice in
            guard var device = devices[id] else {
                throw Self.notPaired(id)
            }
            try Self.checkNameIsFree(name, in: devices, except: id)
            device.displayName = name
            devices[id] = device
            return device
        }
    }

    // MARK: Watching

    /// All paired devices: the current snapshot first, then a new one after every change.
    ///
    /// Changes made through any ``WADeviceStore`` in this process arrive at once; changes by other
    /// processes within about half a second. Only the newest snapshot is buffered. The sequence
    /// ends when the consuming task is cancelled, and throws if the store becomes unreadable.
    public var allDevices: WAPairedDevice.DevicesSequence {
        WAPairedDevice.DevicesSequence(store: self, predicate: nil)
    }

    /// Paired devices for which `predicate` is true, as a sequence of snapshots like ``allDevices``.
    ///
    /// - Parameter predicate: Which devices to include, e.g. `#Predicate { $0.name?.starts(with: "Kitchen") ?? false }`.
    /// - Returns: The sequence of snapshots.
    public func allDevices(matching predicate: Predicate<WAPairedDevice>) -> WAPairedDevice.DevicesSequence {
        WAPairedDevice.DevicesSequence(store: self, predicate: predicate)
    }

    // MARK: Internals

    /// The file's bytes, or `nil` if there is no file yet.
    func readData() throws(WAError) -> Data? {
        do throws(FileError) {
            return try FileContents.readRegularFile(
                at: url.path, limit: Self.maximumFileSize, what: "the device store", privateToOwner: true
            ).map { Data($0) }
        } catch {
            throw WAError.file(error, action: "read the device store", path: url.path)
        }
    }

    func modify<T>(
        _ change: (inout WAPairedDevice.Devices) throws(WAError) -> T
    ) throws(WAError) -> T {
        try modifyStore {
            (devices: inout WAPairedDevice.Devices, _: inout WAPairedDevice.IdentityKey?) throws(WAError) -> T in
            try change(&devices)
        }
    }

    func modifyStore<T>(
        _ change: (inout WAPairedDevice.Devices, inout WAPairedDevice.IdentityKey?) throws(WAError) -> T
    ) throws(WAError) -> T {
        let folder = url.deletingLastPathComponent()
        do throws(FileError) {
            try FileSystem.createFolder(at: folder.path, mode: 0o700)
        } catch {
            throw WAError.file(error, action: "create the folder for the device store", path: folder.path)
        }
        let lockPath = url.path + ".lock"
        let notice = lockWaitNotice
        let result = try FileLock.withExclusiveLock(
            at: lockPath, timeout: lockTimeout, waiting: { notice?(lockPath) }
        ) { () throws(WAError) -> T in
            var devices: WAPairedDevice.Devices = [:]
            var own: WAPairedDevice.IdentityKey?
            if let data = try readData() {
                do throws(DeviceStoreFile.Problem) {
                    (devices, own) = try DeviceStoreFile.decodeStore(data)
                } catch {
                    if case .newerVersion = error {
                        throw unreadable(error, movedTo: nil)
                    }
                    throw unreadable(error, movedTo: try moveAside())
                }
            }
            let result = try change(&devices, &own)
            try write(DeviceStoreFile.encode(devices, ownIdentity: own))
            return result
        }
        StoreChangeSignal.shared.notify(url)
        return result
    }

    /// Replaces the file atomically with a temporary file created 0600 in the same folder (fsynced,
    /// renamed over the store, folder fsynced), so the devices are never readable by other users.
    private func write(_ data: Data) throws(WAError) {
        do throws(FileError) {
            try PrivateFile.replace(at: url.path, with: Array(data))
        } catch {
            throw WAError.file(error, action: "write the device store", path: url.path)
        }
    }

    /// Moves an unreadable store aside, keeping it for the user; returns where it went.
    private func moveAside() throws(WAError) -> URL {
        let stamp = Date().formatted(
            Date.ISO8601FormatStyle(dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted))
        var aside = URL(fileURLWithPath: url.path + ".corrupt-" + stamp)
        var attempt = 1
        while FileSystem.exists(aside.path) {
            attempt += 1
            aside = URL(fileURLWithPath: url.path + ".corrupt-" + stamp + "-\(attempt)")
        }
        do throws(FileError) {
            try FileSystem.rename(url.path, to: aside.path)
        } catch {
            throw WAError.file(error, action: "move aside the unreadable device store", path: url.path)
        }
        return aside
    }

    private func unreadable(_ problem: DeviceStoreFile.Problem, movedTo aside: URL?) -> WAError {
        switch problem {
        case .newerVersion(let version):
            return WAError(
                .deviceStoreCorrupt,
                message: "device store \(url.path) was written by a newer waware (format version \(version); "
                    + "this one reads \(DeviceStoreFile.currentVersion)); upgrade waware, or use another store")
        case .corrupt(let reason):
            if let aside {
                return WAError(
                    .deviceStoreCorrupt,
                    message: "device store \(url.path) could not be read (\(reason)); kept it as \(aside.path) "
                        + "and started an empty store; try again")
            }
            return WAError(
                .deviceStoreCorrupt,
                message: "device store \(url.path) could not be read (\(reason)); it is left untouched, and the next "
                    + "change (e.g. `waware devices add`) moves it aside and starts an empty store")
        }
    }

    static func find(_ reference: String, in devices: WAPairedDevice.Devices) throws(WAError) -> WAPairedDevice {
        if let id = WAPairedDevice.ID(reference), let device = devices[id] {
            return device
        }
        let byName = devices.values.filter { $0.displayName == reference }
        if byName.count == 1, let device = byName.first {
            return device
        }
        let lowered = reference.lowercased()
        let byPrefix = lowered.count >= 4 ? devices.values.filter { $0.id.description.hasPrefix(lowered) } : []
        if byPrefix.count == 1, let device = byPrefix.first {
            return device
        }
        if byPrefix.count > 1 {
            throw WAError(
                .deviceInvalid,
                message: "'\(reference)' matches \(byPrefix.count) paired devices; give more of the id")
        }
        throw WAError(
            .deviceInvalid,
            message: "no paired device has the name or id '\(reference)'; list them with `waware devices list`")
    }

    private static func checkNameIsFree(
        _ name: String, in devices: WAPairedDevice.Devices, except id: WAPairedDevice.ID?
    ) throws(WAError) {
        let key = WAPairedDevice.lookalikeKey(name)
        if let other = devices.values.first(where: { WAPairedDevice.lookalikeKey($0.displayName) == key && $0.id != id }
        ) {
            let same = other.displayName == name
            throw WAError(
                .invalidArgument,
                message: same
                    ? "a paired device is already named '\(name)' (\(other.id)); choose another name"
                    : "the name looks the same as that of paired device \(other.id) (spaces differ); choose another name"
            )
        }
    }

    private static func notPaired(_ id: WAPairedDevice.ID) -> WAError {
        WAError(
            .deviceInvalid,
            message: "no paired device has id \(id); it may have been removed (see `waware devices list`)")
    }
}
