internal import Glibc
public import NANWire

extension NL80211Session {
    /// The kernel's statistics of one peer station on a netdev (`GET_STATION` dump of the interface, the
    /// peer's entry): the passive half of a link performance report. Nil when the interface or the station
    /// is gone (the data path ended).
    ///
    /// - Throws: `NetlinkError` when the kernel refuses the dump or its reply does not decode.
    public func station(_ peer: MACAddress, onInterfaceNamed name: String) async throws -> StationInfo? {
        guard let index = InterfaceIndex(named: name) else { return nil }
        return try await stations(on: index).first { $0.peer == peer }
    }
}

extension InterfaceIndex {
    /// The index of the netdev called `name` in this network namespace (`if_nametoindex`), nil if none.
    public init?(named name: String) {
        let index = if_nametoindex(name)
        guard index != 0 else { return nil }
        self.init(rawValue: index)
    }
}
