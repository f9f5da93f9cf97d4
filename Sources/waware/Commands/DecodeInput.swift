import FoundationEssentials
import NANWire
@_spi(Tools) import WiFiAware

/// Where `waware decode` gets its bytes and how it turns them into NANWire values.
enum DecodeInput {
    /// The separators allowed between hex bytes of a frame: spaces, line breaks, `:` and `-`.
    static let hexSeparators = " \t\r\n:-"

    /// The largest input read from a file or standard input (a NAN frame is at most a few kB; a hex
    /// dump of one twice that; a recording of a few hundred frames well under this).
    static let maximumInput = 16 << 20

    /// Parses hex text: pairs of digits, each group optionally prefixed `0x`, with spaces, line breaks,
    /// `:` or `-` between bytes. Returns nil for anything else (an odd digit count, a non-hex character,
    /// no digits).
    static func bytes(hex text: String) -> [UInt8]? {
        Hex.bytes(text, separators: hexSeparators, allowsPrefix: true)
    }

    /// The frame in a file's (or standard input's) contents: hex text when it is text (printable ASCII
    /// and white space only: a NAN frame always holds other bytes, e.g. its OUI 50 6f 9a), else the raw
    /// bytes themselves.
    /// - Throws: ``ValidationError`` for text that is not well-formed hex (an odd digit count, a letter
    ///   that is not a hex digit), rather than decoding the characters as if they were frame bytes.
    static func bytes(contents: [UInt8], source: String) throws -> [UInt8] {
        let isText = contents.allSatisfy { byte in
            (0x20...0x7e).contains(byte) || byte == 0x09 || byte == 0x0a || byte == 0x0d
        }
        guard isText else { return contents }
        guard let decoded = bytes(hex: String(decoding: contents, as: UTF8.self)) else {
            throw ValidationError(
                "\(source) holds text that is not hex: expected pairs of hex digits (an even count), optionally "
                    + "0x-prefixed, separated by spaces, line breaks, ':' or '-'")
        }
        return decoded
    }

    /// Decodes `bytes` as a whole 802.11 management frame, or as an action body when it starts with a
    /// public-action category byte (4 or 9), which no management frame control does.
    /// - Throws: ``CommandFailure`` with ``ExitCode/malformedFrame`` and the codec's one-line description.
    static func report(_ bytes: [UInt8], serviceNames: [ServiceID: String]) throws -> FrameReport {
        do {
            if let first = bytes.first, first == 0x04 || first == 0x09 {
                return FrameReport(
                    try NANFrame(actionBody: bytes), header: nil, length: bytes.count, serviceNames: serviceNames)
            }
            let frame = try NANManagementFrame(bytes: bytes)
            return FrameReport(frame.body, header: frame.header, length: bytes.count, serviceNames: serviceNames)
        } catch {
            throw CommandFailure("malformed frame: \(error)", code: .malformedFrame)
        }
    }

    /// Reads a whole file (a regular file, at most ``maximumInput`` bytes).
    /// - Throws: ``WAError`` naming the file and what is wrong.
    static func read(_ path: String) throws -> [UInt8] { try ToolFile.read(path, limit: maximumInput, what: "file") }

    /// Reads standard input to its end, at most ``maximumInput`` bytes.
    /// - Throws: ``WAError`` if reading fails or the input is larger.
    static func readStandardInput() throws -> [UInt8] { try ToolStream.standardInput.readAll(limit: maximumInput) }

    /// The recording files under `path`: the file itself, or a folder's `.nlmsg`/`.nlmsgs` files in name
    /// order (the recorder's numbering is the order messages arrived).
    static func recordingFiles(_ path: String) throws -> [String] {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CommandFailure("cannot read '\(path)': no such file or folder")
        }
        guard isFolder else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".nlmsg") || $0.hasSuffix(".nlmsgs") }.sorted().map { "\(path)/\($0)" }
    }

    /// The received frames recorded in `files`, each with the file it came from.
    /// - Throws: ``CommandFailure`` when a file cannot be read or holds a malformed netlink message.
    static func recordedFrames(in files: [String]) throws -> [(file: String, frame: ReceivedFrame)] {
        var frames: [(file: String, frame: ReceivedFrame)] = []
        for file in files {
            let bytes = try read(file)
            do {
                frames += try ReceivedFrame.frames(in: bytes).map { (file, $0) }
            } catch {
                throw CommandFailure("'\(file)' is not a netlink recording: \(error)")
            }
        }
        return frames
    }
}
