internal import NANCrypto
internal import NANSystem
internal import NANWire

/// A resource (a file) the peer starts to send: its name and size. Read it with
/// ``WAConnection/receiveResource(_:to:progress:)``.
public struct WAResourceOffer: Hashable, Sendable {
    /// The file name the sender gave (one path component, no `/`).
    public var name: String
    /// Its size in bytes.
    public var size: UInt64

    /// Decodes a resource-begin frame: 8-byte big-endian size, then 1-255 bytes of UTF-8 name.
    init(decoding payload: [UInt8]) throws(WAError) {
        guard payload.count > 8, payload.count <= 8 + 255 else {
            throw WAError(.connectionTerminated, message: "the peer offered a resource with a malformed header")
        }
        size = payload.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        name = String(decoding: payload.dropFirst(8), as: UTF8.self)
        guard Self.isAcceptable(name) else {
            throw WAError(.connectionTerminated, message: "the peer offered a resource with an unusable name")
        }
    }

    init(name: String, size: UInt64) {
        self.name = name
        self.size = size
    }

    var encoded: [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + Array(name.utf8) }

    /// One path component: not empty, no `/` or NUL, not `.` or `..`, at most 255 bytes.
    static func isAcceptable(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.contains("/") && !name.contains("\0") && name != "."
            && name != ".."
    }
}

/// How far a resource transfer is.
public struct WAResourceProgress: Hashable, Sendable {
    /// Bytes sent or received so far.
    public var completed: UInt64
    /// The resource's size.
    public var total: UInt64
    /// `completed / total`, 1 for an empty resource.
    public var fraction: Double { total == 0 ? 1 : Double(completed) / Double(total) }
}

extension WAConnection {
    /// The size of the data frames a resource is cut into.
    static let resourceChunk = 64 * 1024

    /// Sends the file at `path` as a resource named `name` (default: the path's last component): a header,
    /// the bytes in 64 KiB frames (each waiting for room: flow control), then its SHA-256, which the
    /// receiver checks. `progress` is called after each frame.
    ///
    /// - Throws: ``WAError/Code/storageFailed`` or ``WAError/Code/permissionDenied`` when the file cannot
    ///   be read, ``WAError/Code/connectionTerminated`` when the connection ends before the end.
    public func sendResource(
        at path: String, named name: String? = nil,
        progress: (@Sendable (WAResourceProgress) -> Void)? = nil
    ) async throws(WAError) {
        let name = name ?? String(path.split(separator: "/").last ?? "file")
        guard WAResourceOffer.isAcceptable(name) else {
            throw WAError(
                .invalidArgument, message: "'\(name)' cannot be a resource name (one path component of 1 to 255 bytes)")
        }
        let opened: (file: StreamingFile, size: UInt64)
        do throws(FileError) { opened = try StreamingFile.openForReading(path) } catch {
            throw WAError.file(error, action: "read the file to send", path: path)
        }
        let digest: DigestStream
        do throws(CryptoError) { digest = try DigestStream(.sha256) } catch {
            throw WAError(.storageFailed, message: "SHA-256 is unavailable: \(error)")
        }
        try await sendFrame(
            ConnectionFrame(kind: .resourceBegin, payload: WAResourceOffer(name: name, size: opened.size).encoded))
        var sent: UInt64 = 0
        while sent < opened.size {
            let piece: [UInt8]
            do throws(FileError) { piece = try opened.file.read(maximum: Self.resourceChunk) } catch {
                throw WAError.file(error, action: "read the file to send", path: path)
            }
            guard !piece.isEmpty else {
                throw WAError(
                    .storageFailed,
                    message: "\(path) became shorter while it was sent (\(sent) of \(opened.size) bytes)")
            }
            try? digest.update(piece)
            try await sendFrame(ConnectionFrame(kind: .resourceData, payload: piece))
            sent += UInt64(piece.count)
            progress?(WAResourceProgress(completed: sent, total: opened.size))
        }
        if opened.size == 0 { progress?(WAResourceProgress(completed: 0, total: 0)) }
        let sum: [UInt8]
        do throws(CryptoError) { sum = try digest.finish() } catch {
            throw WAError(.storageFailed, message: "SHA-256 failed: \(error)")
        }
        try await sendFrame(ConnectionFrame(kind: .resourceEnd, payload: sum))
    }

    /// Receives the resource the peer offers into the file `path` (which must not exist): the bytes go
    /// to `path.partial` (0600), and only when they are all there with the announced size and SHA-256 is
    /// it renamed to `path`. If the transfer is cut or the checksum differs, the partial file is removed
    /// and this throws, so no incomplete file is ever left under the final name. An offer larger than
    /// `maximumSize`, or than the free space of the folder, is refused before a byte is written; a file that
    /// appears at `path` meanwhile is never replaced.
    ///
    /// - Returns: The SHA-256 of the bytes, as hex.
    /// - Throws: ``WAError/Code/connectionTerminated`` (cut, or a checksum or size mismatch),
    ///   ``WAError/Code/storageFailed``/``WAError/Code/permissionDenied`` (the file, its size, the space).
    @discardableResult
    public func receiveResource(
        _ offer: WAResourceOffer, to path: String, maximumSize: UInt64? = nil,
        progress: (@Sendable (WAResourceProgress) -> Void)? = nil
    ) async throws(WAError) -> String {
        let partial = path + ".partial"
        if FileSystem.exists(path) {
            throw WAError(.storageFailed, message: "\(path) exists already; not overwritten")
        }
        if let maximumSize, offer.size > maximumSize {
            throw WAError(
                .storageFailed,
                message: "\(offer.name) is \(offer.size) bytes, more than the \(maximumSize) allowed; refused")
        }
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        if let free = FileSystem.availableBytes(at: folder.isEmpty ? "/" : folder), offer.size > free {
            throw WAError(
                .storageFailed, message: "\(offer.name) is \(offer.size) bytes and \(folder) has \(free) free; refused")
        }
        let file: StreamingFile
        do throws(FileError) { file = try StreamingFile.create(partial) } catch {
            throw WAError.file(error, action: "create the received file", path: partial)
        }
        var kept = false
        defer { if !kept { StreamingFile.remove(partial) } }
        let digest: DigestStream
        do throws(CryptoError) { digest = try DigestStream(.sha256) } catch {
            throw WAError(.storageFailed, message: "SHA-256 is unavailable: \(error)")
        }
        var received: UInt64 = 0
        while true {
            let frame: ConnectionFrame?
            do throws(WAError) { frame = try await reader.nextFrame() } catch {
                // When the connection was ended from outside (its data path went), that says why.
                let cause = if case .failed(let final) = currentState { final.message } else { error.message }
                end(.failed(error))
                throw WAError(
                    .connectionTerminated,
                    message:
                        "the transfer of \(offer.name) was cut after \(received) of \(offer.size) bytes (\(cause)); the partial file was removed",
                    underlying: error)
            }
            guard let frame else {
                end(.cancelled)
                throw WAError(
                    .connectionTerminated,
                    message:
                        "the peer closed the connection after \(received) of \(offer.size) bytes of \(offer.name); the partial file was removed"
                )
            }
            switch frame.kind {
            case .resourceData:
                received += UInt64(frame.payload.count)
                guard received <= offer.size else {
                    end(.failed(WAError(.connectionTerminated)))
                    throw WAError(
                        .connectionTerminated,
                        message: "the peer sent more than the \(offer.size) bytes it announced for \(offer.name)")
                }
                try? digest.update(frame.payload)
                do throws(FileError) { try file.write(frame.payload) } catch {
                    throw WAError.file(error, action: "write the received file", path: partial)
                }
                progress?(WAResourceProgress(completed: received, total: offer.size))
            case .resourceEnd:
                let sum = (try? digest.finish()) ?? []
                guard received == offer.size else {
                    throw WAError(
                        .connectionTerminated,
                        message:
                            "\(offer.name): \(received) bytes arrived, \(offer.size) were announced; the partial file was removed"
                    )
                }
                guard frame.payload == sum else {
                    throw WAError(
                        .connectionTerminated,
                        message:
                            "\(offer.name): the SHA-256 of the bytes received differs from the sender's; the partial file was removed"
                    )
                }
                do throws(FileError) {
                    try file.synchronize()
                    try FileSystem.renameWithoutReplacing(partial, to: path)
                } catch  where error.errno == .fileExists {
                    throw WAError(
                        .storageFailed,
                        message:
                            "\(path) appeared while \(offer.name) was received; not overwritten, the partial file was removed"
                    )
                } catch {
                    throw WAError.file(error, action: "keep the received file", path: path)
                }
                kept = true
                if offer.size == 0 { progress?(WAResourceProgress(completed: 0, total: 0)) }
                return Hex.string(sum)
            default:
                end(.failed(WAError(.connectionTerminated)))
                throw WAError(
                    .connectionTerminated, message: "the peer sent another frame in the middle of \(offer.name)")
            }
        }
    }
}
