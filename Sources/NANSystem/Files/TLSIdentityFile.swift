internal import Glibc
public import NANCrypto

/// The file holding this device's ``TLSIdentity`` (its private key and certificate, PEM): made on first use,
/// readable by its owner only (0600), replaced atomically, never printed. Only its fingerprint may be shown.
public enum TLSIdentityFile {
    /// The largest identity file read (a P-256 key and certificate take under 1 KiB).
    static let sizeLimit = 64 * 1024

    /// Loads the identity at `path`; if there is no file there, makes one (P-256, self-signed, `CN=commonName`)
    /// and stores it at `path` first (mode 0600, written atomically: `PrivateFile`). Two processes doing this
    /// at once end with the same identity: creation holds an advisory lock on `path.lock`.
    ///
    /// - Parameters:
    ///   - path: the identity file; its folder must exist.
    ///   - commonName: the certificate's common name if one is made, e.g. `waware 42:00:00:00:00:00`.
    /// - Returns: the identity and whether it was made now.
    /// - Throws: ``FileError``: the file cannot be read or written, is not a regular file, can be read by
    ///   others than its owner, or does not hold an identity (the problem says so; the file is never replaced).
    public static func loadOrCreate(
        at path: String, commonName: String
    ) throws(FileError) -> (identity: TLSIdentity, created: Bool) {
        if let identity = try load(at: path) { return (identity, false) }
        let lockPath = path + ".lock"
        let lock = try AdvisoryLock.openLockFile(at: lockPath)
        defer { AdvisoryLock.close(lock) }
        try AdvisoryLock.lockExclusively(lock, path: lockPath)
        if let identity = try load(at: path) { return (identity, false) }  // another process made it meanwhile
        let identity: TLSIdentity
        let pem: [UInt8]
        do throws(TLSError) {
            identity = try TLSIdentity.generate(commonName: commonName)
            pem = try identity.pemEncoded()
        } catch {
            throw FileError(
                operation: "make a TLS identity for \(path)", path: path, errno: .ioError, problem: error.description)
        }
        try PrivateFile.replace(at: path, with: pem)
        return (identity, true)
    }

    /// The identity stored at `path`, or nil if there is no file.
    ///
    /// - Throws: ``FileError`` as for ``loadOrCreate(at:commonName:)``.
    public static func load(at path: String) throws(FileError) -> TLSIdentity? {
        guard
            let bytes = try FileContents.readRegularFile(
                at: path, limit: sizeLimit, what: "the TLS identity", privateToOwner: true)
        else {
            return nil
        }
        do throws(TLSError) {
            return try TLSIdentity(pem: bytes)
        } catch {
            throw FileError(
                operation: "read the TLS identity \(path)", path: path, errno: .invalidArgument,
                problem: "it is not a TLS identity (\(error.code)); move it away to make a new one")
        }
    }
}
