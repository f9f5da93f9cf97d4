internal import Glibc

/// What a network interface's driver says about itself through ethtool (`ETHTOOL_GDRVINFO` over
/// `SIOCETHTOOL`): for a Wi-Fi interface, cfg80211 answers with the driver, the firmware version and the bus.
public struct EthtoolDriverInfo: Sendable, Hashable {
    /// The driver name.
    public var driver: String
    /// The driver version (cfg80211 puts the kernel release here).
    public var version: String
    /// The firmware version; empty when the driver does not report one.
    public var firmwareVersion: String
    /// Where the device sits (`0000:00:14.3`), if reported.
    public var busInfo: String

    /// Creates a value (mostly for tests).
    public init(driver: String, version: String, firmwareVersion: String, busInfo: String) {
        self.driver = driver
        self.version = version
        self.firmwareVersion = firmwareVersion
        self.busInfo = busInfo
    }

    /// `ETHTOOL_GDRVINFO`.
    static let command: UInt32 = 0x3
    /// `SIOCETHTOOL`.
    static let ioctlRequest: UInt = 0x8946
    /// `sizeof(struct ethtool_drvinfo)`: cmd, five 32-byte strings, 12 reserved bytes, five u32 counts.
    static let size = 4 + 32 * 5 + 12 + 4 * 5

    /// Asks the driver of the network interface `name`.
    ///
    /// - Throws: the ``Errno`` of `socket` or `ioctl` (`ENODEV` when there is no such interface in this
    ///   network namespace, `EOPNOTSUPP` when the driver has no ethtool support).
    public static func query(interface name: String) throws(Errno) -> EthtoolDriverInfo {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Errno.current }
        defer { _ = close(descriptor) }
        var info = [UInt8](repeating: 0, count: size)
        withUnsafeBytes(of: command) { info.replaceSubrange(0..<4, with: $0) }
        var request = ifreq()
        let nameBytes = Array(name.utf8.prefix(Int(IFNAMSIZ) - 1))
        withUnsafeMutableBytes(of: &request.ifr_ifrn) { raw in
            for (index, byte) in nameBytes.enumerated() { raw[index] = byte }
        }
        let result = info.withUnsafeMutableBytes { buffer -> Int32 in
            request.ifr_ifru.ifru_data = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            return ioctl(descriptor, ioctlRequest, &request)
        }
        guard result == 0 else { throw Errno.current }
        return decode(info)
    }

    /// Reads the strings out of a filled `struct ethtool_drvinfo`.
    static func decode(_ bytes: [UInt8]) -> EthtoolDriverInfo {
        func field(_ index: Int) -> String {
            let start = 4 + 32 * index
            guard bytes.count >= start + 32 else { return "" }
            return String(decoding: bytes[start..<(start + 32)].prefix { $0 != 0 }, as: UTF8.self)
        }
        return EthtoolDriverInfo(driver: field(0), version: field(1), firmwareVersion: field(2), busInfo: field(3))
    }

    /// The network interfaces (netdevs) of `phy` visible in this namespace, from sysfs (`.../device/net`,
    /// or `/sys/class/net/*/phy80211` for radios without a device).
    public static func networkInterfaces(ofPhy phy: String) -> [String] {
        SysfsDirectory.entries("/sys/class/net").filter { name in
            SysfsDirectory.linkTarget("/sys/class/net/\(name)/phy80211")?.split(separator: "/").last.map(String.init)
                == phy
        }
    }
}
