/// One netlink message (`struct nlmsghdr` + payload) copied out of a datagram.
struct NetlinkMessage: Sendable, Hashable {
    /// Size of `struct nlmsghdr`.
    static let headerSize = 16
    /// `NLMSG_NOOP`.
    static let typeNoop: UInt16 = 1
    /// `NLMSG_ERROR`: an ack (error 0 or a positive value) or a refusal (negative errno).
    static let typeError: UInt16 = 2
    /// `NLMSG_DONE`: the end of a dump.
    static let typeDone: UInt16 = 3
    /// `NLMSG_OVERRUN`.
    static let typeOverrun: UInt16 = 4

    /// `NLM_F_REQUEST`.
    static let flagRequest: UInt16 = 0x1
    /// `NLM_F_MULTI`.
    static let flagMulti: UInt16 = 0x2
    /// `NLM_F_ACK`.
    static let flagAck: UInt16 = 0x4
    /// `NLM_F_DUMP` (`NLM_F_ROOT | NLM_F_MATCH`).
    static let flagDump: UInt16 = 0x300
    /// `NLM_F_CAPPED` on an error message: the original request's payload was left out.
    static let flagCapped: UInt16 = 0x100
    /// `NLM_F_ACK_TLVS` on an error message: extended-ack attributes follow.
    static let flagAckTLVs: UInt16 = 0x200

    /// `nlmsg_type`: a generic netlink family id, or one of the `NLMSG_*` control types.
    var type: UInt16
    /// `nlmsg_flags`.
    var flags: UInt16
    /// `nlmsg_seq`: our request's sequence number on replies, 0 on events.
    var sequence: UInt32
    /// `nlmsg_pid`.
    var portID: UInt32
    /// The bytes after the header.
    var payload: [UInt8]

    /// Splits a received datagram into messages.
    ///
    /// - Throws: ``NetlinkError`` `malformedMessage` if a header's length is impossible.
    static func split(datagram: [UInt8]) throws(NetlinkError) -> [NetlinkMessage] {
        var messages: [NetlinkMessage] = []
        var position = 0
        while datagram.count - position >= headerSize {
            let length = Int(readU32(datagram, position))
            guard length >= headerSize, position + length <= datagram.count else {
                throw .malformed(
                    "netlink message length \(length) overruns \(datagram.count - position) bytes",
                    at: position)
            }
            messages.append(
                NetlinkMessage(
                    type: readU16(datagram, position + 4),
                    flags: readU16(datagram, position + 6),
                    sequence: readU32(datagram, position + 8),
                    portID: readU32(datagram, position + 12),
                    payload: Array(datagram[(position + headerSize)..<(position + length)])))
            position += NetlinkAttributes.aligned(length)
        }
        return messages
    }

    /// The message's bytes, header included (what the fixture recorder stores).
    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + payload.count)
        appendU32(&bytes, UInt32(Self.headerSize + payload.count))
        appendU16(&bytes, type)
        appendU16(&bytes, flags)
        appendU32(&bytes, sequence)
        appendU32(&bytes, portID)
        bytes.append(contentsOf: payload)
        return bytes
    }

    static func readU16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt16.self) }
    }

    static func readU32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
    }
}

/// Appends an integer in host byte order.
func appendU16(_ bytes: inout [UInt8], _ value: UInt16) {
    withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
}

/// Appends an integer in host byte order.
func appendU32(_ bytes: inout [UInt8], _ value: UInt32) {
    withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
}

/// The content of an `NLMSG_ERROR` or `NLMSG_DONE` message: the kernel's verdict on a request.
struct NetlinkAck: Sendable, Hashable {
    /// `NLMSGERR_ATTR_MSG`.
    static let attributeMessage: UInt16 = 1
    /// `NLMSGERR_ATTR_OFFS`.
    static let attributeOffset: UInt16 = 2

    /// The largest errno the kernel can report (`MAX_ERRNO`): a refusal is -1 … -4095.
    static let maximumErrno: Int32 = 4095

    /// 0 or a positive value on success (hwsim returns the new radio id here), a negative errno on failure.
    var error: Int32

    /// The errno of a refusal; nil for a success.
    var refusal: Errno? { error < 0 ? Errno(rawValue: -error) : nil }
    /// The extended-ack message text, if any.
    var kernelMessage: String?
    /// The offset of the offending attribute in our request, if the kernel named one.
    var offendingOffset: UInt32?

    /// Decodes an error/ack or done message.
    init(_ message: NetlinkMessage) throws(NetlinkError) {
        let payload = message.payload
        guard payload.count >= 4 else {
            // A DONE message may legally carry nothing.
            if message.type == NetlinkMessage.typeDone { error = 0; return }
            throw .malformed("netlink error message of \(payload.count) bytes", at: NetlinkMessage.headerSize)
        }
        error = payload.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        // Found by the netlink fuzz target: -Int32.min traps, so a value no errno can have is malformed.
        guard error >= -Self.maximumErrno else {
            throw .malformed("netlink error \(error) is no errno", at: NetlinkMessage.headerSize)
        }
        var tlvStart = 4
        if message.type == NetlinkMessage.typeError {
            // The original request header follows, and its payload too unless the ack is capped.
            guard payload.count >= 4 + NetlinkMessage.headerSize else {
                throw .malformed("netlink error message without the request header", at: NetlinkMessage.headerSize)
            }
            let originalLength = Int(NetlinkMessage.readU32(payload, 4))
            let echoed =
                message.flags & NetlinkMessage.flagCapped != 0
                ? NetlinkMessage.headerSize : NetlinkAttributes.aligned(originalLength)
            tlvStart = 4 + echoed
        }
        guard message.flags & NetlinkMessage.flagAckTLVs != 0, tlvStart < payload.count else { return }
        let tlvs = try NetlinkAttributes(
            parsing: Array(payload[tlvStart...]),
            baseOffset: NetlinkMessage.headerSize + tlvStart)
        for attribute in tlvs.all {
            switch attribute.type {
            case Self.attributeMessage: kernelMessage = attribute.string
            case Self.attributeOffset: offendingOffset = try? attribute.integer(UInt32.self)
            default: break
            }
        }
    }
}

/// A generic netlink message: the netlink header fields, `struct genlmsghdr`, and attributes.
struct GenericNetlinkMessage: Sendable, Hashable {
    /// Size of `struct genlmsghdr` (cmd u8, version u8, reserved u16).
    static let headerSize = 4

    /// The family id (`nlmsg_type`).
    var family: UInt16
    /// The generic netlink command.
    var command: UInt8
    /// The decoded attributes.
    var attributes: NetlinkAttributes
    /// The whole netlink message as received (for fixtures and debugging).
    var raw: NetlinkMessage

    /// Decodes the generic netlink part of a message.
    init(_ message: NetlinkMessage) throws(NetlinkError) {
        guard message.payload.count >= Self.headerSize else {
            throw .malformed("generic netlink message of \(message.payload.count) bytes", at: NetlinkMessage.headerSize)
        }
        family = message.type
        command = message.payload[0]
        attributes = try NetlinkAttributes(
            parsing: Array(message.payload[Self.headerSize...]),
            baseOffset: NetlinkMessage.headerSize + Self.headerSize)
        raw = message
    }

    /// Decodes a message from its full bytes (header included), as stored in fixtures.
    init(bytes: [UInt8]) throws(NetlinkError) {
        let messages = try NetlinkMessage.split(datagram: bytes)
        guard let first = messages.first else {
            throw .malformed("no netlink message in \(bytes.count) bytes", at: 0)
        }
        try self.init(first)
    }

    /// Encodes a request.
    ///
    /// - Parameters:
    ///   - family: the resolved family id.
    ///   - command: the command number.
    ///   - version: the family's interface version.
    ///   - flags: netlink flags (`NLM_F_REQUEST | NLM_F_ACK`, plus `NLM_F_DUMP` for dumps).
    ///   - sequence: our sequence number, echoed by the kernel in the reply.
    ///   - attributes: the attribute bytes from a ``NetlinkAttributeWriter``.
    static func encodeRequest(
        family: UInt16, command: UInt8, version: UInt8, flags: UInt16, sequence: UInt32, attributes: [UInt8]
    ) -> [UInt8] {
        let payload = [command, version, 0, 0] + attributes
        return NetlinkMessage(type: family, flags: flags, sequence: sequence, portID: 0, payload: payload).encoded
    }
}
