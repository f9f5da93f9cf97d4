/// The few fixed-size messages of waware's performance probes, little-endian. Decoders are total: a
/// message of the wrong size, magic or version is nil, never a trap.
///
/// - capacity request (TCP, client → responder, 24 bytes): `WAPC`, version 1, direction (`U`: the client
///   sends, `D`: the responder sends), 2 reserved, maximum bytes (u64), duration in ms (u32), 4 reserved;
/// - capacity result (TCP, responder → client after an upload, 24 bytes): `WAPR`, version 1, 3 reserved,
///   bytes received (u64), nanoseconds from the first byte to the end of the stream (u64);
/// - latency probe (UDP, both ways, 64 bytes): `WAPL`, version 1, traffic class, 2 reserved, sequence (u32),
///   4 reserved, 8 reserved, the responder's hold time in ns (u64, 0 from the client), zero padding.
public enum ProbeMessage {
    static let version: UInt8 = 1

    /// A capacity request.
    public struct CapacityRequest: Hashable, Sendable {
        /// True: the client sends (upload); false: the responder sends (download).
        public var clientSends: Bool
        /// At most this many bytes.
        public var maximumBytes: UInt64
        /// At most this long, in milliseconds.
        public var milliseconds: UInt32

        /// The 24 bytes.
        public var bytes: [UInt8] {
            var b: [UInt8] = Array("WAPC".utf8) + [ProbeMessage.version, clientSends ? 0x55 : 0x44, 0, 0]
            append(&b, maximumBytes)
            append(&b, UInt64(milliseconds))
            return b
        }

        /// Decodes 24 bytes; nil if they are not a capacity request.
        public init?(_ b: [UInt8]) {
            guard b.count == 24, b.prefix(4).elementsEqual("WAPC".utf8), b[4] == ProbeMessage.version,
                b[5] == 0x55 || b[5] == 0x44
            else { return nil }
            clientSends = b[5] == 0x55
            maximumBytes = read(b, at: 8)
            milliseconds = UInt32(truncatingIfNeeded: read(b, at: 16))
        }

        /// Creates a request.
        public init(clientSends: Bool, maximumBytes: UInt64, milliseconds: UInt32) {
            self.clientSends = clientSends
            self.maximumBytes = maximumBytes
            self.milliseconds = milliseconds
        }
    }

    /// What the responder received in an upload.
    public struct CapacityResult: Hashable, Sendable {
        /// Bytes received.
        public var bytes: UInt64
        /// Nanoseconds from the first byte to the end of the stream.
        public var nanoseconds: UInt64

        /// The 24 bytes.
        public var encoded: [UInt8] {
            var b: [UInt8] = Array("WAPR".utf8) + [ProbeMessage.version, 0, 0, 0]
            append(&b, bytes)
            append(&b, nanoseconds)
            return b
        }

        /// Decodes 24 bytes; nil if they are not a result.
        public init?(_ b: [UInt8]) {
            guard b.count == 24, b.prefix(4).elementsEqual("WAPR".utf8), b[4] == ProbeMessage.version else {
                return nil
            }
            bytes = read(b, at: 8)
            nanoseconds = read(b, at: 16)
        }

        /// Creates a result.
        public init(bytes: UInt64, nanoseconds: UInt64) {
            self.bytes = bytes
            self.nanoseconds = nanoseconds
        }
    }

    /// A latency probe or its echo.
    public struct LatencyProbe: Hashable, Sendable {
        /// The size on the air (UDP payload).
        public static let size = 64
        /// The traffic class the client sent it with (the echo goes back with the same).
        public var trafficClass: UInt8
        /// The client's sequence number.
        public var sequence: UInt32
        /// How long the responder held it, ns (0 from the client).
        public var holdNanoseconds: UInt64

        /// The 64 bytes.
        public var bytes: [UInt8] {
            var b: [UInt8] = Array("WAPL".utf8) + [ProbeMessage.version, trafficClass, 0, 0]
            append(&b, UInt64(sequence))
            append(&b, 0)
            append(&b, holdNanoseconds)
            return b + [UInt8](repeating: 0, count: Self.size - b.count)
        }

        /// Decodes a datagram; nil if it is not a probe.
        public init?(_ b: [UInt8]) {
            guard b.count == Self.size, b.prefix(4).elementsEqual("WAPL".utf8), b[4] == ProbeMessage.version else {
                return nil
            }
            trafficClass = b[5]
            sequence = UInt32(truncatingIfNeeded: read(b, at: 8))
            holdNanoseconds = read(b, at: 24)
        }

        /// Creates a probe.
        public init(trafficClass: UInt8, sequence: UInt32, holdNanoseconds: UInt64 = 0) {
            self.trafficClass = trafficClass
            self.sequence = sequence
            self.holdNanoseconds = holdNanoseconds
        }
    }
}

private func append(_ bytes: inout [UInt8], _ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
}

/// Reads a little-endian u64 at `offset`; callers check the length first.
private func read(_ bytes: [UInt8], at offset: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<8 where offset + index < bytes.count {
        value |= UInt64(bytes[offset + index]) << UInt64(8 * index)
    }
    return value
}
