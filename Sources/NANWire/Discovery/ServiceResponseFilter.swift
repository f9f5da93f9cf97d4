/// A Service Response Filter (SRF): which devices should answer a publish or subscribe.
///
/// Wire form inside the Service Descriptor attribute: `length, control, address set`. Control bit 0:
/// address set is a Bloom filter; bit 1: include (only listed devices respond) rather than exclude;
/// bits 2–3: Bloom filter index.
public struct ServiceResponseFilter: Hashable, Sendable {
    /// The devices the filter names.
    public enum AddressSet: Hashable, Sendable {
        /// An explicit list of NMI addresses.
        case addresses([MACAddress])
        /// A Bloom filter over NMI addresses.
        case bloomFilter(BloomFilter)
    }

    /// `true`: only devices in the set respond. `false`: devices in the set do not respond.
    public var include: Bool
    /// The devices named.
    public var addressSet: AddressSet

    /// Creates a filter.
    public init(include: Bool, addressSet: AddressSet) {
        self.include = include
        self.addressSet = addressSet
    }

    /// Whether the set names `address` (Bloom filters may give false positives).
    public func names(_ address: MACAddress) -> Bool {
        switch addressSet {
        case .addresses(let list): return list.contains(address)
        case .bloomFilter(let filter): return filter.mightContain(address)
        }
    }

    /// Whether the device with NMI `address` should respond: in the set if `include`, else not in it.
    public func shouldRespond(_ address: MACAddress) -> Bool {
        names(address) == include
    }

    /// Decodes control + address set (the bytes after the SRF length byte).
    init(decoding reader: inout ByteReader) throws(NANWireError) {
        let controlOffset = reader.offset
        let control = try reader.readU8("service response filter control")
        include = control & 0x02 != 0
        if control & 0x01 != 0 {
            let bits = reader.readRest()
            do {
                addressSet = .bloomFilter(try BloomFilter(index: (control >> 2) & 0x03, bits: bits))
            } catch {
                throw NANWireError(error.kind, at: controlOffset, "service response filter: \(error.context)")
            }
        } else {
            guard reader.remaining % 6 == 0 else {
                throw reader.error(
                    .malformed,
                    "service response filter address list of \(reader.remaining) bytes is not a multiple of 6")
            }
            addressSet = .addresses(
                try reader.readToEnd { r throws(NANWireError) in try r.readMAC("service response filter address") })
        }
    }

    /// Encodes control + address set (without the length byte).
    func encode(into writer: inout ByteWriter) {
        var control: UInt8 = include ? 0x02 : 0
        switch addressSet {
        case .addresses(let list):
            writer.writeU8(control)
            for mac in list { writer.writeMAC(mac) }
        case .bloomFilter(let filter):
            control |= 0x01 | (filter.index & 0x03) << 2
            writer.writeU8(control)
            writer.writeBytes(filter.bits)
        }
    }
}
