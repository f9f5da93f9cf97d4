public import FoundationEssentials
internal import NANSystem

/// This device's identity on connections (TN3213's peer identifier): a random UUID made on first use and
/// kept next to the paired-device store (file `peer-id`, mode 0600), exchanged when a connection starts,
/// so both ends know who they talk to whatever NAN address the radio uses today. It is not a secret and
/// proves nothing by itself: TLS and the paired-device store authenticate the peer.
public struct WAPeerIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The UUID.
    public let uuid: UUID

    /// Wraps a UUID.
    public init(uuid: UUID) { self.uuid = uuid }

    /// Reads 16 bytes (the caller checks the count).
    init(bytes: [UInt8]) {
        var b = [UInt8](repeating: 0, count: 16)
        for (i, byte) in bytes.prefix(16).enumerated() { b[i] = byte }
        uuid = UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }

    /// The 16 bytes, in the UUID's order.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// Byte order (the UUID's 16 bytes compared in turn): the order of the de-duplication rule.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    /// TN3213's de-duplication rule: of two connections between the same two peers, made at once in
    /// opposite directions, the one initiated by the peer with the smaller identifier survives. Both peers
    /// apply it to the same two identifiers, so both keep the same connection.
    ///
    /// - Returns: Whether the connection initiated by `initiator` survives against the one `other` initiated.
    public static func survives(initiatedBy initiator: Self, against other: Self) -> Bool { initiator < other }

    /// The UUID in lower case.
    public var description: String { uuid.uuidString.lowercased() }

    /// This device's identifier for the store at `store` (file `peer-id` in the store's folder), made and
    /// saved (0600) on first use.
    ///
    /// - Throws: ``WAError/Code/storageFailed`` or ``WAError/Code/permissionDenied`` when the file cannot
    ///   be read or written; ``WAError/Code/deviceStoreCorrupt`` when it holds something else than a UUID.
    public static func local(for store: WADeviceStore = .default) throws(WAError) -> WAPeerIdentifier {
        let folder = store.url.deletingLastPathComponent().path
        let path = folder + "/peer-id"
        if let existing = try read(path) { return existing }
        do throws(FileError) {
            try FileSystem.createFolder(at: folder, mode: 0o700)
        } catch {
            throw WAError.file(error, action: "create the folder for this device's peer identifier", path: folder)
        }
        // Made under the store's lock, read again inside it: two programs starting at once must not each save
        // their own (the second file would replace the first, and the first program would go on with an
        // identifier nobody else will see again).
        return try FileLock.withExclusiveLock(at: store.url.path + ".lock", timeout: store.lockTimeout) {
            () throws(WAError) -> WAPeerIdentifier in
            if let existing = try read(path) { return existing }
            let made = WAPeerIdentifier(uuid: UUID())
            do throws(FileError) {
                try PrivateFile.replace(at: path, with: Array((made.description + "\n").utf8))
            } catch {
                throw WAError.file(error, action: "save this device's peer identifier", path: path)
            }
            return made
        }
    }

    /// The identifier saved at `path`; nil when there is no file.
    private static func read(_ path: String) throws(WAError) -> WAPeerIdentifier? {
        let existing: [UInt8]?
        do throws(FileError) {
            existing = try FileContents.readRegularFile(at: path, limit: 256, what: "the peer identifier")
        } catch {
            throw WAError.file(error, action: "read this device's peer identifier", path: path)
        }
        guard let existing else { return nil }
        let text = String(String(decoding: existing, as: UTF8.self).filter { !$0.isWhitespace })
        guard let uuid = UUID(uuidString: text) else {
            throw WAError(
                .deviceStoreCorrupt,
                message: "\(path) does not hold a peer identifier (a UUID); remove it to make a new one")
        }
        return WAPeerIdentifier(uuid: uuid)
    }
}
