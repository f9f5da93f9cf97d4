import NANSystem

/// What a command-line tool needs of its process (NANSystem's capabilities, exit and netlink recording), for
/// waware, which imports no layer below this API.
@_spi(Tools) public enum ToolProcess {
    /// Keeps only `CAP_NET_ADMIN`, all the radio needs (docs/security.md), in the process's capability sets;
    /// nothing is added to a process that lacks it. Call it while the process has one thread: threads made
    /// later inherit the narrowed sets.
    public static func keepOnlyNetAdmin() { try? ProcessCapabilities.keepOnly(.netAdmin) }

    /// Makes all threads allocate from one malloc arena (glibc makes one per thread otherwise, each keeping
    /// its pages resident). Call it first, while the process has one thread.
    public static func useOneMallocArena() { ProcessMemory.useOneMallocArena() }

    /// Ends the process now with `status`.
    public static func exit(_ status: Int32) -> Never { ProcessControl.exit(status) }

    /// Records every netlink message received by sessions opened from now on into `folder`, one file per
    /// message (`WAWARE_NL_RECORD`); nil or empty records nothing.
    /// - Returns: why nothing is recorded into `folder` (another user may write to it), or nil.
    public static func recordNetlinkMessages(into folder: String?) -> String? {
        NetlinkDiagnostics.record(into: folder)
        guard let folder, !folder.isEmpty else { return nil }
        return NetlinkDiagnostics.refusal(ofRecordingDirectory: folder)
    }
}

/// Standard input, output or error as a plain file descriptor (NANSystem's `StandardStream`): each write goes
/// straight to the descriptor (no buffering), every byte or an error.
@_spi(Tools) public enum ToolStream: Int, Sendable {
    /// Descriptor 0.
    case standardInput
    /// Descriptor 1.
    case standardOutput
    /// Descriptor 2.
    case standardError

    private var stream: StandardStream { [.standardInput, .standardOutput, .standardError][rawValue] }

    /// Writes the UTF-8 bytes of `text`.
    /// - Throws: ``WAError`` `storageFailed` with the errno of `write(2)` as its message
    ///   (`No space left on device (ENOSPC)`).
    public func write(_ text: String) throws(WAError) {
        do throws(Errno) {
            try stream.write(text)
        } catch {
            throw WAError(.storageFailed, message: error.description, errno: error.rawValue, underlying: error)
        }
    }

    /// Whether a write failed because its reader went away (`EPIPE`), which ends a tool quietly.
    public static func readerWentAway(_ error: WAError) -> Bool { error.errno == Errno.brokenPipe.rawValue }

    /// Reads everything until the end, at most `limit` bytes.
    /// - Throws: ``WAError`` `cannot read standard input: …`.
    public func readAll(limit: Int) throws(WAError) -> [UInt8] {
        do throws(FileError) {
            return try stream.readAll(limit: limit)
        } catch {
            throw WAError.file(error, action: "read", path: "standard input")
        }
    }
}

/// Whole-file reads for the tool (a secret given as a file, a frame to decode), by NANSystem's `FileContents`.
@_spi(Tools) public enum ToolFile {
    /// The regular file at `path`, at most `limit` bytes; a symbolic link is followed, a FIFO, device or folder
    /// refused.
    /// - Throws: ``WAError`` `cannot read <what> <path>: <why>`, `permissionDenied` or `storageFailed`
    ///   (`No such file or directory (ENOENT)` when there is none).
    public static func read(_ path: String, limit: Int, what: String) throws(WAError) -> [UInt8] {
        do throws(FileError) {
            let bytes = try FileContents.readRegularFile(
                at: path, limit: limit, what: what, followingSymbolicLinks: true)
            guard let bytes else { throw FileError(operation: "read", path: path, errno: .noSuchFile) }
            return bytes
        } catch {
            throw WAError.file(error, action: "read \(what)", path: path)
        }
    }
}
