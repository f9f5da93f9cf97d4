/// CRC-32 (IEEE 802.3 polynomial, reflected, as zlib's `crc32`). A checksum used by the SRF Bloom filter;
/// not cryptography.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// zlib-compatible CRC-32 of `data` (initial value all ones, final complement).
    static func checksum<C: Sequence>(_ data: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }
}
