/// The kernel module behind a radio's driver and the version it declares, from sysfs.
public struct DriverModule: Sendable, Hashable {
    /// The module's name (`iwlwifi`, `mac80211_hwsim`); `nil` for a driver built into the kernel.
    public var name: String?
    /// `MODULE_VERSION` (`/sys/module/<name>/version`), which in-tree drivers seldom set.
    public var version: String?
    /// The checksum of the module's source (`srcversion`), which tells builds apart when there is no version.
    public var sourceVersion: String?

    /// Creates a value (mostly for tests).
    public init(name: String?, version: String?, sourceVersion: String?) {
        self.name = name
        self.version = version
        self.sourceVersion = sourceVersion
    }

    /// The module of `phy`'s driver (`/sys/class/ieee80211/<phy>/device/driver/module`), if it has a device.
    public static func of(phy: String) -> DriverModule? {
        let driver = "/sys/class/ieee80211/\(phy)/device/driver"
        guard SysfsDirectory.linkTarget(driver) != nil else { return nil }
        guard let target = SysfsDirectory.linkTarget(driver + "/module"),
            let name = target.split(separator: "/").last.map(String.init)
        else { return DriverModule(name: nil, version: nil, sourceVersion: nil) }
        return DriverModule(
            name: name,
            version: SysfsDirectory.attribute("/sys/module/\(name)/version"),
            sourceVersion: SysfsDirectory.attribute("/sys/module/\(name)/srcversion"))
    }
}
