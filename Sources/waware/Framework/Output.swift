import FoundationEssentials
import NANSystem

/// Where a command writes: results to standard output, the one-line failure to standard error.
///
/// Writes go straight to the file descriptor (no stdio buffering) so streaming commands show each event
/// as it happens even when piped.
struct Output: Sendable {
    /// Writes `text` and a newline to standard output.
    func write(_ text: String) {
        try? StandardStream.standardOutput.write(text + "\n")
    }

    /// Writes `value` as one line of JSON (sorted keys) to standard output.
    /// - Throws: the encoder's error if `value` cannot be encoded.
    func writeJSON<T: Encodable>(_ value: T) throws {
        write(try Self.json(value))
    }

    /// Writes `waware: <message>` to standard error, folded onto one line.
    func fail(_ message: String) {
        try? StandardStream.standardError.write("waware: " + Self.oneLine(message) + "\n")
    }

    /// `value` encoded as compact JSON with sorted keys and unescaped slashes.
    /// - Throws: the encoder's error if `value` cannot be encoded.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `message` with line breaks replaced by "; " so a failure is always one line.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
