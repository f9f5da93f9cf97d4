import Foundation
import NANSystem
import NANWire

/// Where `waware decode` gets its bytes and how it turns them into NANWire values.
enum DecodeInput {
    /// Parses hex text: pairs of digits, optionally prefixed `0x`, with spaces, line breaks, `:` or `-`
    /// between bytes. Returns nil for anything else (an odd digit count, a non-hex character, no digits).
    static func bytes(hex text: String) -> [UInt8]? {
        var digits = text.filter { !($0.isWhitespace || $0 == ":" || $0 == "-") }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits.removeFirst(2) }
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// The frame in a file's (or standard input's) contents: hex text when every byte is a hex digit or a
    /// separator, else the raw bytes themselves.
    static func bytes(contents: [UInt8]) -> [UInt8] {
        let hexText = contents.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                 UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: ":"),
                 UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                return true
            default:
                return false
            }
        }
        if hexText, let decoded = bytes(hex: String(decoding: contents, as: UTF8.self)) { return decoded }
        return contents
    }

    /// Decodes `bytes` as a whole 802.11 management frame, or as an action body when it starts with a
    /// public-action category byte (4 or 9), which no management frame control does.
    /// - Throws: ``CommandFailure`` with ``ExitCode/malformedFrame`` and the codec's one-line description.
    static func report(_ bytes: [UInt8], serviceNames: [ServiceID: String]) throws -> FrameReport {
        do {
            if let first = bytes.first, first == 0x04 || first == 0x09 {
                return FrameReport(try NANFrame(actionBody: bytes), header: nil, length: bytes.count, serviceNames: serviceNames)
            }
            let frame = try NANManagementFrame(bytes: bytes)
            return FrameReport(frame.body, header: frame.header, length: bytes.count, serviceNames: serviceNames)
        } catch {
            throw CommandFailure("malformed frame: \(error)", code: .malformedFrame)
        }
    }

    /// Reads a whole file.
    /// - Throws: ``CommandFailure`` naming the file.
    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read '\(path)': no such file or not readable")
        }
        return [UInt8](data)
    }

    /// Reads standard input to its end.
    static func readStandardInput() -> [UInt8] {
        [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// The recording files under `path`: the file itself, or a folder's `.nlmsg`/`.nlmsgs` files in name
    /// order (the recorder's numbering is the order messages arrived).
    static func recordingFiles(_ path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CommandFailure("cannot read '\(path)': no such file or folder")
        }
        guard isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".nlmsg") || $0.hasSuffix(".nlmsgs") }.sorted().map { "\(path)/\($0)" }
    }

    /// The received frames recorded in `files`, each with the file it came from.
    /// - Throws: ``CommandFailure`` when a file cannot be read or holds a malformed netlink message.
    static func recordedFrames(in files: [String]) throws -> [(file: String, frame: RecordedFrame)] {
        var frames: [(file: String, frame: RecordedFrame)] = []
        for file in files {
            do {
                frames += try NetlinkRecording.receivedFrames(in: try read(file)).map { (file, $0) }
            } catch let error as NetlinkError {
                throw CommandFailure("'\(file)' is not a netlink recording: \(error)")
            }
        }
        return frames
    }
}
