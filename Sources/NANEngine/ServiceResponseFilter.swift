/// A subscribe's Service Response Filter: which publishers should answer it.
///
/// The addresses are sent either as a list or as a Bloom filter of them; `include` says whether the listed
/// publishers are the only ones that should answer (true) or the ones that should not (false).
public struct ServiceResponseFilter: Hashable, Sendable {
    /// How the address set is carried on the air.
    public enum Encoding: Hashable, Sendable {
        /// A plain list of addresses.
        case addressList
        /// A Bloom filter of `length` bytes built with hash-function set `index` (0...3).
        case bloomFilter(length: Int, index: UInt8)
    }

    /// The publishers' NMI addresses.
    public var addresses: [MACAddress]
    /// True: only these publishers answer. False: these publishers do not answer.
    public var include: Bool
    /// How the addresses are carried on the air.
    public var encoding: Encoding

    /// Makes a filter.
    public init(addresses: [MACAddress], include: Bool = true, encoding: Encoding = .addressList) {
        self.addresses = addresses
        self.include = include
        self.encoding = encoding
    }
}

/// A Service Response Filter as received from the air: answers whether an address passes it.
struct ReceivedResponseFilter: Sendable {
    /// True if the filter names the publishers that should answer.
    var include: Bool
    /// Whether the filter's set contains an address (a Bloom filter may say yes wrongly, never no wrongly).
    var contains: @Sendable (MACAddress) -> Bool

    /// Whether a publisher with `address` should answer.
    func admits(_ address: MACAddress) -> Bool { contains(address) == include }

    /// The received form of a filter we built ourselves.
    init(_ filter: ServiceResponseFilter) {
        let set = Set(filter.addresses)
        self.include = filter.include
        self.contains = { set.contains($0) }
    }

    init(include: Bool, contains: @escaping @Sendable (MACAddress) -> Bool) {
        self.include = include
        self.contains = contains
    }
}
