internal import Foundation
internal import NANSystem

extension WAError {
    /// Turns a file error (Foundation's, or NANSystem's `FileError`) into a WAError: permission problems
    /// become `permissionDenied`, everything else `storageFailed`; the errno is kept.
    ///
    /// - Parameters:
    ///   - error: The error Foundation or `PrivateFile` threw.
    ///   - action: What was being done, e.g. "write the device store".
    ///   - path: The file concerned.
    static func file(_ error: any Error, action: String, path: String) -> WAError {
        let number = posixErrno(of: error)
        let reason = number.map(errnoText) ?? error.localizedDescription
        if number == 13 || number == 1 {  // EACCES, EPERM
            return WAError(
                .permissionDenied,
                message:
                    "cannot \(action) \(path): permission denied; check the owner and mode of the file and its folder",
                errno: number, underlying: error)
        }
        return WAError(
            .storageFailed, message: "cannot \(action) \(path): \(reason)", errno: number, underlying: error)
    }

    /// The POSIX errno inside an error (a NANSystem `FileError`, a `POSIXError`, or a `CocoaError` wrapping
    /// one), if there is one.
    static func posixErrno(of error: any Error) -> Int32? {
        if let file = error as? FileError {
            return file.errno
        }
        if let posix = error as? POSIXError {
            return posix.code.rawValue
        }
        if let cocoa = error as? CocoaError, let inner = cocoa.userInfo[NSUnderlyingErrorKey] as? any Error {
            return posixErrno(of: inner)
        }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain {
            return Int32(nsError.code)
        }
        if let inner = nsError.userInfo[NSUnderlyingErrorKey] as? any Error {
            return posixErrno(of: inner)
        }
        return nil
    }

    /// The C library's text for an errno, e.g. "No space left on device (errno 28)".
    static func errnoText(_ number: Int32) -> String {
        let text: String
        if let code = POSIXErrorCode(rawValue: number) {
            // Foundation prefixes strerror's text with a generic sentence; keep only strerror's part.
            let full = POSIXError(code).localizedDescription
            let generic = "The operation could not be completed. "
            text = full.hasPrefix(generic) ? String(full.dropFirst(generic.count)) : full
        } else {
            text = "unknown error"
        }
        return "\(text) (errno \(number))"
    }
}
