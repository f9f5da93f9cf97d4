import FoundationEssentials
@_spi(Tools) import WiFiAware

/// Where a command writes: results to standard output, the one-line failure to standard error.
///
/// Writes go straight to the file descriptor (no stdio buffering) so streaming commands show each event
/// as it happens even when piped. A write that fails ends the process with ``ExitCode/outputFailed``: quietly
/// when the reader went away (`EPIPE`), otherwise with one line on standard error (or nothing more, if
/// standard error is what failed).
struct Output: Sendable {
    /// Writes `text` and a newline to standard output.
    /// Characters a terminal would act on are escaped (``TerminalText/escapedLines(_:)``).
    func write(_ text: String) {
        Self.emit(TerminalText.escapedLines(text) + "\n", to: .standardOutput)
    }

    /// Writes `text` to `stream`, or ends the process as ``Output`` describes.
    static func emit(_ text: String, to stream: ToolStream) {
        do {
            try stream.write(text)
        } catch {
            // Said on standard error when there is someone to tell: a reader that went away is not told.
            if !ToolStream.readerWentAway(error) && stream == .standardOutput {
                try? ToolStream.standardError.write("waware: cannot write to standard output: \(error)\n")
            }
            ToolProcess.exit(ExitCode.outputFailed.rawValue)
        }
    }

    /// Writes `value` as one line of JSON (sorted keys) to standard output.
    /// - Throws: the encoder's error if `value` cannot be encoded.
    func writeJSON<T: Encodable>(_ value: T) throws {
        Self.emit(TerminalText.escapedJSON(try Self.json(value)) + "\n", to: .standardOutput)
    }

    /// Writes `value` as one line of JSON when `json` is set, else its text `lines`.
    func write<T: Encodable>(_ value: T, json: Bool, lines: @autoclosure () -> [String]) throws {
        if json { try writeJSON(value) } else { for line in lines() { write(line) } }
    }

    /// Writes `waware: <message>` to standard error, folded onto one line.
    func fail(_ message: String) {
        Self.emit("waware: " + TerminalText.escapedLines(Self.oneLine(message)) + "\n", to: .standardError)
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

extension Output: ToolOutput {}
