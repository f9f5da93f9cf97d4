/// A radio's kill switch (`/sys/class/ieee80211/<phy>/rfkillN`): blocked by software or by hardware.
public struct RFKillSwitch: Sendable, Hashable {
    /// The switch's name in sysfs (`rfkill0`).
    public var name: String
    /// Blocked by software (`rfkill block`, a desktop's airplane mode).
    public var softBlocked: Bool
    /// Blocked by hardware (a switch or key, the BIOS): software cannot lift it.
    public var hardBlocked: Bool

    /// Creates a value (mostly for tests).
    public init(name: String, softBlocked: Bool, hardBlocked: Bool) {
        self.name = name
        self.softBlocked = softBlocked
        self.hardBlocked = hardBlocked
    }

    /// The kill switches of `phy` (usually one; none for some virtual radios).
    public static func of(phy: String) -> [RFKillSwitch] {
        let base = "/sys/class/ieee80211/\(phy)"
        return SysfsDirectory.entries(base).filter { $0.hasPrefix("rfkill") }.map { name in
            RFKillSwitch(
                name: name,
                softBlocked: SysfsDirectory.attribute("\(base)/\(name)/soft") == "1",
                hardBlocked: SysfsDirectory.attribute("\(base)/\(name)/hard") == "1")
        }
    }
}
