internal import NANSystem

extension WAError {
    /// Turns a file error (NANSystem's `FileError`) into a WAError:
    /// permission problems become `permissionDenied`, everything else `storageFailed`; the errno is kept.
    ///
    /// - Parameters:
    ///   - error: The error thrown.
    ///   - action: What was being done, e.g. "write the device store".
    ///   - path: The file concerned.
    static func file(_ error: any Error, action: String, path: String) -> WAError {
        let number = systemErrno(of: error)
        if let file = error as? FileError, let problem = file.problem {
            return WAError(
                .storageFailed, message: "cannot \(action) \(path): \(problem)", errno: file.errno.rawValue,
                underlying: error)
        }
        if let number, number.isPermissionDenied {
            return WAError(
                .permissionDenied,
                message:
                    "cannot \(action) \(path): permission denied; check the owner and mode of the file and its folder",
                errno: number.rawValue, underlying: error)
        }
        let reason = number.map(\.description) ?? String(describing: error)
        return WAError(
            .storageFailed, message: "cannot \(action) \(path): \(reason)", errno: number?.rawValue, underlying: error)
    }

    /// The system errno inside an error (a NANSystem `FileError`), if there is one.
    static func systemErrno(of error: any Error) -> Errno? {
        (error as? FileError)?.errno
    }
}
