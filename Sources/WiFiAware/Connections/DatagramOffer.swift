/// What each side sends right after its connection preface when it wants datagrams (41 bytes): `WAWD`,
/// version 1, its UDP port (16-bit big-endian), the largest payload it accepts (16-bit big-endian) and 32
/// random bytes. Both offers together are the context of the datagram keys, so the keys are bound to the
/// ports and to this connection.
struct DatagramOffer: Hashable, Sendable {
    /// The size on the wire.
    static let size = 41
    static let magic: [UInt8] = Array("WAWD".utf8)
    static let version: UInt8 = 1

    var port: UInt16
    var maximumSize: Int
    var random: [UInt8]

    init(port: UInt16, maximumSize: Int, random: [UInt8]) {
        self.port = port
        self.maximumSize = maximumSize
        self.random = random
    }

    var encoded: [UInt8] {
        let size = UInt16(clamping: maximumSize)
        return Self.magic + [Self.version, UInt8(port >> 8), UInt8(port & 0xff), UInt8(size >> 8), UInt8(size & 0xff)]
            + random
    }

    /// Decodes an offer (total: every malformed input is an error naming what is wrong).
    init(decoding bytes: [UInt8]) throws(WAError) {
        guard bytes.count == Self.size, Array(bytes.prefix(4)) == Self.magic else {
            throw WAError(.connectionFailed, message: "the peer's datagram offer is malformed (no WAWD)")
        }
        guard bytes[4] == Self.version else {
            throw WAError(
                .connectionFailed,
                message: "the peer offers datagram version \(bytes[4]), this waware speaks \(Self.version)")
        }
        port = UInt16(bytes[5]) << 8 | UInt16(bytes[6])
        maximumSize = Int(bytes[7]) << 8 | Int(bytes[8])
        random = Array(bytes[9..<Self.size])
        guard port != 0 else { throw WAError(.connectionFailed, message: "the peer's datagram offer has port 0") }
        guard (1...WADatagramOptions.largestSize).contains(maximumSize) else {
            throw WAError(
                .connectionFailed,
                message:
                    "the peer's datagram offer accepts \(maximumSize) bytes (1 to \(WADatagramOptions.largestSize))")
        }
    }
}
