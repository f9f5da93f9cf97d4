internal import CCrypto

/// Message digests computed by OpenSSL's libcrypto. Nothing here is hand-rolled.
public enum Digest {
    /// Why a digest could not be computed (libcrypto reported a failure).
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// What failed.
        public let message: String
        /// One-line message.
        public var description: String { "libcrypto digest failed: \(message)" }
    }

    /// SHA-256 of `data` (32 bytes).
    public static func sha256(_ data: [UInt8]) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = data.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                EVP_Digest(input.baseAddress, input.count, out.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        guard ok == 1, length == 32 else {
            throw Failure(message: "EVP_Digest(SHA-256) returned \(ok), length \(length)")
        }
        return output
    }
}
