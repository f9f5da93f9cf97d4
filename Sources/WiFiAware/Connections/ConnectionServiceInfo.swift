/// The listener's TCP port in a publish's service info: the text `waport=<port>` at the end, after the
/// service's own info and a `;` when there is some (so a peer that does not know connections still
/// sees readable text).
enum ConnectionServiceInfo {
    static let key = Array("waport=".utf8)

    /// `info` with the port appended; nil when it would not fit in 255 bytes.
    static func adding(port: UInt16, to info: [UInt8]) -> [UInt8]? {
        let tail = key + Array(String(port).utf8)
        let joined = info.isEmpty ? tail : info + Array(";".utf8) + tail
        return joined.count <= 255 ? joined : nil
    }

    /// The port announced in `info`, nil when there is none (total on any input).
    static func port(in info: [UInt8]) -> UInt16? {
        guard info.count >= key.count else { return nil }
        var index = info.count - key.count
        while index >= 0 {
            if Array(info[index..<index + key.count]) == key {
                let digits = info[(index + key.count)...]
                guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ (48...57).contains($0) }) else {
                    return nil
                }
                let value = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
                return value > 0 && value <= 65535 ? UInt16(value) : nil
            }
            index -= 1
        }
        return nil
    }
}
