internal import CCrypto

/// The one place NANCrypto talks to libcrypto. Each `OpenSSL+*.swift` file adds one family of calls; all of
/// NANCrypto's unsafe pointer code lives in those files, and nothing C-typed leaves them.
enum OpenSSL {
    /// The libcrypto message digest for `function`.
    static func messageDigest(_ function: HashFunction) -> OpaquePointer? {
        switch function {
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        }
    }

    /// Calls `body` with a pointer to `bytes` that is never nil, even for an empty array (libcrypto
    /// rejects a null pointer for some empty inputs).
    static func withBytes<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        if bytes.isEmpty {
            var placeholder: UInt8 = 0
            return withUnsafePointer(to: &placeholder) { body($0, 0) }
        }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
    }

    /// Fills a new array of `count` bytes through `body`, which returns whether libcrypto succeeded.
    static func output(_ count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Bool) -> [UInt8]? {
        var result = [UInt8](repeating: 0, count: max(count, 1))
        let ok = result.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        return ok ? Array(result.prefix(count)) : nil
    }

    /// The oldest libcrypto error on this thread's queue as text (and the queue cleared), for messages.
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no libcrypto error queued" }
        var text = [CChar](repeating: 0, count: 256)
        text.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
