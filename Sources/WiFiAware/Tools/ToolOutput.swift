/// Where a tool's command prints: lines of text, or one JSON object per line. waware's `Output` is one.
@_spi(Tools) public protocol ToolOutput: Sendable {
    /// Writes `text` and a line break.
    func write(_ text: String)
    /// Writes `value` as one line of JSON.
    /// - Throws: the encoder's error if `value` cannot be encoded.
    func writeJSON<T: Encodable>(_ value: T) throws
}
