import NANWire
@_spi(Tools) import WiFiAware

/// Conversions from command-line words to the values commands work with. Each returns `nil` for a word it
/// cannot accept, so ``ParsedValues/option(_:expected:_:)`` can name the option in its error.
enum ArgumentValues {
    /// A NAN band as the user names it.
    typealias Band = ClusterBand

    /// Parses a comma-separated band list: `2.4,5`, `2.4GHz,5GHz`, `2g,5g`, `2.4`.
    static func bands(_ text: String) -> Set<Band>? {
        var result = Set<Band>()
        for part in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            var word = part.trimmingCharacters(in: " ")
            for suffix in ["ghz", "g"] where word.hasSuffix(suffix) {
                word = String(word.dropLast(suffix.count))
                break
            }
            switch word {
            case "2.4", "2": result.insert(.ghz2_4)
            case "5": result.insert(.ghz5)
            case "6": result.insert(.ghz6)
            default: return nil
            }
        }
        return result.isEmpty ? nil : result
    }

    /// Parses a NAN master preference: 1 to 255 (the kernel rejects 0; 1 and 255 are reserved for
    /// certification testing but accepted).
    static func masterPreference(_ text: String) -> UInt8? {
        guard let value = UInt8(text), value >= 1 else { return nil }
        return value
    }

    /// The fixed first four bytes of every NAN cluster ID: 50-6F-9A-01.
    static let clusterIDPrefix: [UInt8] = [0x50, 0x6F, 0x9A, 0x01]

    /// Parses a NAN cluster ID: the full address `50:6f:9a:01:xx:xx` or just its last two bytes `xx:xx`.
    /// Bytes may be separated by `:` or `-`.
    static func clusterID(_ text: String) -> [UInt8]? {
        guard let bytes = macBytes(text) else { return nil }
        if bytes.count == 2 { return clusterIDPrefix + bytes }
        guard bytes.count == 6, Array(bytes.prefix(4)) == clusterIDPrefix else { return nil }
        return bytes
    }

    /// Parses hex bytes separated by `:` or `-` (`02:00:00:00:01:00`).
    static func macBytes(_ text: String) -> [UInt8]? {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "-" })
        var bytes: [UInt8] = []
        for part in parts {
            guard let byte = Hex.byte(part) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    /// Parses a whole number within `range`.
    static func integer(in range: ClosedRange<Int>) -> (String) -> Int? {
        { text in Int(text).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// Parses a number of seconds within `range`.
    static func seconds(in range: ClosedRange<Double>) -> (String) -> Double? { seconds(where: range.contains) }

    /// Parses a number of seconds that `accepts` (NaN and infinities never pass a bounded test).
    static func seconds(where accepts: @escaping (Double) -> Bool) -> (String) -> Double? {
        { text in Double(text).flatMap { accepts($0) ? $0 : nil } }
    }
}

extension Substring {
    /// The substring without leading and trailing occurrences of `character`.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop(while: { $0 == character }).reversed().drop(while: { $0 == character }).reversed())
    }
}
