import NANWire
#if canImport(Glibc)
    import Glibc
#endif

/// Where adapter facts that nl80211 does not carry come from: the driver name and the permanent
/// address, looked up by phy name. The default reads sysfs; tests pass fixed answers.
struct AdapterSystemInfo: Sendable {
    /// The driver of a phy, e.g. `mac80211_hwsim`.
    var driver: @Sendable (_ phy: String) -> String?
    /// The permanent address of a phy.
    var permanentAddress: @Sendable (_ phy: String) -> MACAddress?

    /// Reads `/sys/class/ieee80211/<phy>/device/driver` (a link whose last component is the driver)
    /// and `/sys/class/ieee80211/<phy>/macaddress`.
    static let sysfs = AdapterSystemInfo(
        driver: { phy in
            guard let target = readLink("/sys/class/ieee80211/\(phy)/device/driver") else { return nil }
            return target.split(separator: "/").last.map(String.init)
        },
        permanentAddress: { phy in
            guard let text = readSmallFile("/sys/class/ieee80211/\(phy)/macaddress") else { return nil }
            return MACAddress(text.trimmingWhitespace)
        })

    /// No sysfs facts.
    static let none = AdapterSystemInfo(driver: { _ in nil }, permanentAddress: { _ in nil })

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            guard let base = pointer.baseAddress else { return -1 }
            return readlink(path, base, pointer.count - 1)
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and newlines.
    var trimmingWhitespace: String {
        var characters = Substring(self)
        while let first = characters.first, first.isWhitespace { characters = characters.dropFirst() }
        while let last = characters.last, last.isWhitespace { characters = characters.dropLast() }
        return String(characters)
    }
}
