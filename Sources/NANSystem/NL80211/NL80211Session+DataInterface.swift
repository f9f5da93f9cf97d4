internal import CNetlinkShim
public import NANWire

extension NL80211Session {
    /// Creates a NAN data interface (NDI, iftype `NAN_DATA`) on a radio whose NAN interface runs, owned
    /// by this session (the kernel deletes it when the session closes), and brings it up.
    ///
    /// - Parameters:
    ///   - wiphy: the radio.
    ///   - name: the netdev name (at most 15 bytes).
    ///   - address: the NDI address; nil lets the kernel choose.
    /// - Throws: ``NetlinkError``; bringing it up fails with `ENOLINK` unless NAN runs on the radio.
    public func createDataInterface(
        on wiphy: WiphyIndex, name: String, address: MACAddress? = nil
    ) async throws -> WirelessInterface {
        let interface = try await createInterface(
            on: wiphy, name: name, type: .nanData, address: address, ownedBySession: true)
        do {
            try Self.setInterfaceUp(interface.name ?? name, true)
        } catch {
            try? await deleteInterface(interface.wdev)
            throw error
        }
        return interface
    }

    /// Sets or clears a netdev's administrative up flag (`SIOCSIFFLAGS`).
    public static func setInterfaceUp(_ name: String, _ up: Bool) throws(NetlinkError) {
        let result = name.withCString { cnl_set_interface_up($0, up ? 1 : 0) }
        guard result == 0 else {
            let errno = Errno(rawValue: -result)
            throw NetlinkError(
                code: errno == .noSuchDevice ? .noSuchDevice : errno.isPermissionDenied ? .permissionDenied : .system,
                errno: errno, call: "SIOCSIFFLAGS", detail: "interface \(name)")
        }
    }
}
