public import FoundationEssentials

/// Splits a byte stream into lines of at most ``DaemonProtocol/maximumLineLength`` bytes and turns messages
/// into lines: the protocol's framing. Total: any bytes give lines or an `overlong` verdict, never a trap.
public struct LineCodec: Sendable {
    /// What feeding bytes gave.
    public enum Output: Sendable, Hashable {
        /// A whole line, without its newline.
        case line([UInt8])
        /// More than the maximum came without a newline: the stream is out of step and must end.
        case overlong
    }

    private var pending: [UInt8] = []
    /// The longest line accepted.
    public let maximum: Int

    /// A codec for lines of at most `maximum` bytes.
    public init(maximum: Int = DaemonProtocol.maximumLineLength) { self.maximum = max(1, maximum) }

    /// Bytes held for a line not yet ended.
    public var pendingCount: Int { pending.count }

    /// Feeds received bytes; returns the whole lines they end (empty lines skipped), then `overlong` if the
    /// rest has grown past the maximum (after which nothing more should be fed).
    public mutating func feed(_ bytes: [UInt8]) -> [Output] {
        var out: [Output] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            pending += bytes[start..<index]
            start = index + 1
            if pending.count >= maximum { return out + [.overlong] }
            if !pending.isEmpty { out.append(.line(pending)) }
            pending.removeAll(keepingCapacity: true)
        }
        pending += bytes[start...]
        if pending.count >= maximum { out.append(.overlong) }
        return out
    }

    /// A value as one line: compact JSON (which has no raw newline) and a newline.
    public static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    /// A request from a line, or the error to answer it with (and the request's id when the line had one).
    public static func decodeRequest(_ line: [UInt8]) -> Result<DaemonRequest, RequestFailure> {
        let decoder = JSONDecoder()
        if let request = try? decoder.decode(DaemonRequest.self, from: Data(line)) {
            guard request.v == DaemonProtocol.version else {
                return .failure(RequestFailure(id: request.id, error: .unsupportedVersion(request.v)))
            }
            return .success(request)
        }
        // Not a request: say why, with its id and version when those at least can be read.
        let head = try? decoder.decode(RequestHead.self, from: Data(line))
        if let head, let v = head.v, v != DaemonProtocol.version {
            return .failure(RequestFailure(id: head.id, error: .unsupportedVersion(v)))
        }
        return .failure(
            RequestFailure(
                id: head?.id,
                error: .invalidRequest(
                    head == nil ? "a line that is not a JSON object" : "a request with missing or malformed fields")))
    }

    /// A message from the daemon from a line; nil for anything else.
    public static func decodeMessage(_ line: [UInt8]) -> DaemonMessage? {
        try? JSONDecoder().decode(DaemonMessage.self, from: Data(line))
    }

    private struct RequestHead: Decodable {
        var v: Int?
        var id: UInt64?
    }
}

/// A line that is no request of this protocol: the error to answer with and the id to answer to.
public struct RequestFailure: Error, Sendable, Hashable {
    /// The request's id, when it could be read.
    public var id: UInt64?
    /// The answer.
    public var error: DaemonError
}
