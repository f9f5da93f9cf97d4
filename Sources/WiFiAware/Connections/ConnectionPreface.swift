/// What each side sends first on a connection (after the TLS handshake, when there is one), 22 bytes:
/// `WAWC`, version 1, the sender's peer identifier (16 bytes), the mode (0 messages, 1 byte stream; bit 7
/// set: a ``DatagramOffer`` follows).
struct ConnectionPreface: Hashable, Sendable {
    /// The size on the wire.
    static let size = 22
    static let magic: [UInt8] = Array("WAWC".utf8)
    static let version: UInt8 = 1

    var peer: WAPeerIdentifier
    var mode: WAConnectionMode
    /// Whether the sender's datagram offer follows the preface.
    var offersDatagrams = false

    var encoded: [UInt8] {
        Self.magic + [Self.version] + peer.bytes + [(mode == .messages ? 0 : 1) | (offersDatagrams ? 0x80 : 0)]
    }

    /// Decodes a preface (total: every malformed input is an error naming what is wrong).
    init(decoding bytes: [UInt8]) throws(WAError) {
        guard bytes.count == Self.size, Array(bytes.prefix(4)) == Self.magic else {
            throw WAError(.connectionFailed, message: "the peer is not a waware connection (no WAWC preface)")
        }
        guard bytes[4] == Self.version else {
            throw WAError(
                .connectionFailed,
                message: "the peer speaks connection version \(bytes[4]), this waware speaks \(Self.version)")
        }
        peer = WAPeerIdentifier(bytes: Array(bytes[5..<21]))
        offersDatagrams = bytes[21] & 0x80 != 0
        switch bytes[21] & 0x7f {
        case 0: mode = .messages
        case 1: mode = .byteStream
        default:
            throw WAError(
                .connectionFailed, message: "the peer asked for an unknown connection mode \(bytes[21] & 0x7f)")
        }
    }

    init(peer: WAPeerIdentifier, mode: WAConnectionMode, offersDatagrams: Bool = false) {
        self.peer = peer
        self.mode = mode
        self.offersDatagrams = offersDatagrams
    }
}
