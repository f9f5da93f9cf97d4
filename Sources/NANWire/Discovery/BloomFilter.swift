/// The Bloom filter form of a Service Response Filter address set.
///
/// For filter index `i` (0…3) an address X sets four bits: for j in 4i…4i+3,
/// `h = (~CRC32(j ‖ X)) & 0xFFFF mod (8 × length)`, bit `h % 8` of byte `h / 8`. CRC32 is zlib's CRC-32,
/// so `~CRC32` is the CRC register without the final complement — the form hostap's NAN discovery
/// engine uses (`nan_check_bloom_filter`), which we interoperate with.
public struct BloomFilter: Hashable, Sendable {
    /// Which of the four hash sets (0…3) the filter uses.
    public let index: UInt8
    /// The filter bits; at least 1 byte, at most 254.
    public private(set) var bits: ArraySlice<UInt8>

    /// An empty filter of `length` bytes using hash set `index`.
    public init(index: UInt8, length: Int) throws(NANWireError) {
        guard index <= 3 else { throw NANWireError(.outOfRange, at: 0, "Bloom filter index \(index), must be 0…3") }
        guard (1...254).contains(length) else {
            throw NANWireError(.outOfRange, at: 0, "Bloom filter length \(length), must be 1…254 bytes")
        }
        self.index = index
        self.bits = [UInt8](repeating: 0, count: length)[...]
    }

    /// A filter of `length` bytes containing `addresses`.
    public init(index: UInt8, length: Int, addresses: [MACAddress]) throws(NANWireError) {
        try self.init(index: index, length: length)
        for address in addresses { insert(address) }
    }

    /// Wraps received filter bits (kept as a slice of the frame, no copy).
    public init(index: UInt8, bits: ArraySlice<UInt8>) throws(NANWireError) {
        guard index <= 3 else { throw NANWireError(.outOfRange, at: 0, "Bloom filter index \(index), must be 0…3") }
        guard (1...254).contains(bits.count) else {
            throw NANWireError(.outOfRange, at: 0, "Bloom filter length \(bits.count), must be 1…254 bytes")
        }
        self.index = index
        self.bits = bits
    }

    /// The four bit positions `address` maps to with this filter's index and length.
    public func bitPositions(for address: MACAddress) -> [Int] {
        Self.bitPositions(for: address, index: index, bitCount: bits.count * 8)
    }

    /// The four bit positions of `address` for hash set `index` in a filter of `bitCount` bits.
    /// Empty when `bitCount` is not positive.
    public static func bitPositions(for address: MACAddress, index: UInt8, bitCount: Int) -> [Int] {
        guard bitCount > 0 else { return [] }
        var input = [UInt8](repeating: 0, count: 7)
        let o = address.octets
        input[1] = o.0; input[2] = o.1; input[3] = o.2; input[4] = o.3; input[5] = o.4; input[6] = o.5
        var positions: [Int] = []
        positions.reserveCapacity(4)
        for j in (4 * Int(index & 3))..<(4 * Int(index & 3) + 4) {
            input[0] = UInt8(j)
            let h = Int((~CRC32.checksum(input)) & 0xFFFF)
            positions.append(h % bitCount)
        }
        return positions
    }

    /// Adds an address.
    public mutating func insert(_ address: MACAddress) {
        for p in bitPositions(for: address) { bits[bits.startIndex + p / 8] |= 1 << UInt8(p % 8) }
    }

    /// Whether `address` may be in the set (false positives possible, no false negatives).
    public func mightContain(_ address: MACAddress) -> Bool {
        bitPositions(for: address).allSatisfy { p in bits[bits.startIndex + p / 8] & (1 << UInt8(p % 8)) != 0 }
    }
}
