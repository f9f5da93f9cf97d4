internal import CSystemShim

/// A set of Linux capabilities (`capabilities(7)`), as the kernel's bit mask.
public struct CapabilitySet: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    /// Creates a set from the kernel's mask (bit n is capability n).
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// `CAP_DAC_OVERRIDE` (1): file access whatever the mode.
    public static let dacOverride = CapabilitySet(rawValue: 1 << 1)
    /// `CAP_SETPCAP` (8): drop capabilities from the bounding set.
    public static let setPCap = CapabilitySet(rawValue: 1 << 8)
    /// `CAP_NET_ADMIN` (12): nl80211 commands, interfaces, stations and keys. All the radio needs.
    public static let netAdmin = CapabilitySet(rawValue: 1 << 12)
    /// `CAP_NET_RAW` (13): raw and packet sockets.
    public static let netRaw = CapabilitySet(rawValue: 1 << 13)
    /// `CAP_SYS_ADMIN` (21).
    public static let sysAdmin = CapabilitySet(rawValue: 1 << 21)

    /// The mask in hex, as `/proc/PID/status` prints it (`0000000000001000` for CAP_NET_ADMIN alone).
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }
}

/// The capabilities of this process, and dropping the ones it does not need.
///
/// Everything waware does with the radio needs `CAP_NET_ADMIN` and nothing more: it runs no program, opens no
/// raw socket and loads no module. Started as root (every capability), it keeps only that one before it
/// reads a frame from the air, so a flaw in the parsing of untrusted bytes hands an attacker no more than
/// the radio. Capabilities belong to threads: call ``keepOnly(_:)`` before any other thread exists (first
/// thing in `main`), and every thread made later inherits the narrowed sets.
public enum ProcessCapabilities {
    /// The calling thread's effective set; nil if the kernel does not say.
    public static var effective: CapabilitySet? {
        var effective: UInt64 = 0, permitted: UInt64 = 0, inheritable: UInt64 = 0
        guard waware_capabilities_get(&effective, &permitted, &inheritable) == 0 else { return nil }
        return CapabilitySet(rawValue: effective)
    }

    /// The calling thread's permitted set; nil if the kernel does not say.
    public static var permitted: CapabilitySet? {
        var effective: UInt64 = 0, permitted: UInt64 = 0, inheritable: UInt64 = 0
        guard waware_capabilities_get(&effective, &permitted, &inheritable) == 0 else { return nil }
        return CapabilitySet(rawValue: permitted)
    }

    /// Whether `capability` (one capability) is still in the bounding set.
    public static func isInBoundingSet(_ capability: CapabilitySet) -> Bool {
        guard capability.rawValue != 0, capability.rawValue & (capability.rawValue - 1) == 0 else { return false }
        return waware_capability_bounding(Int32(capability.rawValue.trailingZeroBitCount)) == 1
    }

    /// Keeps only `kept`: the others leave the bounding set (when the process may change it: root may), the
    /// ambient set is cleared, the effective, permitted and inheritable sets are narrowed, and no program
    /// run later can gain privileges (`no_new_privs`). Nothing is ever added: a process without `kept`
    /// stays without it.
    ///
    /// - Throws: ``Errno`` of the step that failed (the steps before it stay done).
    public static func keepOnly(_ kept: CapabilitySet) throws(Errno) {
        let result = waware_capabilities_keep_only(kept.rawValue)
        guard result == 0 else { throw Errno(rawValue: -result) }
    }
}
