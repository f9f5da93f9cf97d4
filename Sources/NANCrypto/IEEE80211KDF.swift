/// The IEEE 802.11 key derivation function KDF-Hash-Length (IEEE 802.11-2020 §12.7.1.6.2), used for the
/// PTK of RSNA and of NAN data paths.
///
/// Output block i (counting from 1) is HMAC-Hash(K, i ‖ Label ‖ Context ‖ Length), where i and Length (the
/// output length in bits) are 16-bit little-endian integers and Label is the ASCII text without a
/// terminating NUL; the blocks are concatenated and truncated to Length bits. Only the composition is
/// written here; every HMAC is computed by libcrypto.
public enum IEEE80211KDF {
    /// Derives `length` bytes (1...8191, as Length in bits must fit 16 bits) from `key`.
    public static func derive(
        _ hash: HashFunction, key: [UInt8], label: String, context: [UInt8],
        length: Int
    ) throws(CryptoError) -> [UInt8] {
        guard (1...8191).contains(length) else {
            throw CryptoError(.invalidLength, "KDF-\(hash): output of \(length) bytes")
        }
        let bits = UInt16(length * 8)
        var output: [UInt8] = []
        output.reserveCapacity(length + hash.outputSize)
        var counter: UInt16 = 1
        while output.count < length {
            var block: [UInt8] = [UInt8(counter & 0xFF), UInt8(counter >> 8)]
            block += Array(label.utf8)
            block += context
            block += [UInt8(bits & 0xFF), UInt8(bits >> 8)]
            output += try HMAC.compute(hash, key: key, message: block)
            counter += 1
        }
        return Array(output.prefix(length))
    }
}
