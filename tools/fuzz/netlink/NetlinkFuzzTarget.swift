// libFuzzer entry point for the decoders of kernel messages: everything the engine reads from netlink.
//
// Built by tools/fuzz/run with `swiftc -sanitize=fuzzer,address` together with the NANWire sources and the
// pure-Swift decoding sources of NANSystem (one module; the files that open sockets or call libnl are left
// out, and `import NANWire` is dropped since it is the same module), so this file is not part of the
// package. The decoder under test is chosen by NETLINK_FUZZ_DECODER:
//
// - netlink: a received datagram as NetlinkConnection takes it: split into messages (the round trip of
//   the split must hold), each as an ack/done (NetlinkAck) or a generic netlink message, and every
//   attribute walked as nested attributes, recursively, with every integer width read.
// - nl80211event: the datagram's messages decoded as nl80211 events (NL80211Event.decode, which must be
//   total: undecodable events are `.malformed`, never a trap), and as a netlink recording
//   (NetlinkRecording.receivedFrames, what `waware decode --nlmsgs` reads).
// - nl80211reply: the datagram's messages decoded by every reply decoder: interface, station, the
//   ADD_NAN_FUNCTION handle, and a wiphy/interface dump built into adapters.
//
// Any decoder outcome is fine except a trap or a sanitizer report.

enum NetlinkFuzzDecoder: String {
    case netlink, nl80211event, nl80211reply
}

nonisolated(unsafe) var selectedNetlinkDecoder: NetlinkFuzzDecoder?

func netlinkDecoder() -> NetlinkFuzzDecoder {
    if let selectedNetlinkDecoder { return selectedNetlinkDecoder }
    let chosen = getenvString("NETLINK_FUZZ_DECODER").flatMap(NetlinkFuzzDecoder.init(rawValue:)) ?? .netlink
    selectedNetlinkDecoder = chosen
    return chosen
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { preconditionFailure("invariant broke: \(message())") }
}

/// Walks attributes as the decoders do: integers of every width, strings, and nested lists (depth-bounded;
/// a nested array is a nested list of nested lists, so the recursion covers it).
func walk(_ attributes: NetlinkAttributes, depth: Int = 0) {
    for attribute in attributes.all {
        _ = try? attribute.integer(UInt8.self)
        _ = try? attribute.integer(UInt16.self)
        _ = try? attribute.integer(UInt32.self)
        _ = try? attribute.integer(UInt64.self)
        _ = try? attribute.integer(Int32.self)
        _ = attribute.string
        _ = try? attribute.bytes(count: 6)
        guard depth < 3, let nested = try? attribute.nested() else { continue }
        walk(nested, depth: depth + 1)
    }
}

/// The generic netlink messages of a datagram, as the connection would hand them on.
func genericMessages(_ bytes: [UInt8]) -> [GenericNetlinkMessage] {
    guard let messages = try? NetlinkMessage.split(datagram: bytes) else { return [] }
    return messages.filter { $0.type >= 0x10 }.compactMap { try? GenericNetlinkMessage($0) }
}

func fuzzNetlink(_ bytes: [UInt8]) {
    guard let messages = try? NetlinkMessage.split(datagram: bytes) else { return }
    // What split read, written back (each message padded to 4 bytes), splits into the same messages.
    var again: [UInt8] = []
    for message in messages {
        again += message.encoded
        again += [UInt8](repeating: 0, count: NetlinkAttributes.aligned(again.count) - again.count)
    }
    check((try? NetlinkMessage.split(datagram: again)) == messages, "netlink split round trip")
    for message in messages {
        switch message.type {
        case NetlinkMessage.typeError, NetlinkMessage.typeDone:
            // The connection turns a refusal into its errno (that negation trapped on Int32.min once).
            if let ack = try? NetlinkAck(message), let refusal = ack.refusal { _ = refusal.description }
        default:
            guard let generic = try? GenericNetlinkMessage(message) else { continue }
            walk(generic.attributes)
            _ = try? generic.attributes.all.first?.nestedArray()
            check(generic.raw == message, "generic message keeps the raw message")
        }
    }
}

func fuzzEvents(_ bytes: [UInt8]) {
    for message in genericMessages(bytes) {
        let event = NL80211Event.decode(message)
        _ = String(describing: event)
    }
    _ = try? NetlinkRecording.receivedFrames(in: bytes)
}

func fuzzReplies(_ bytes: [UInt8]) {
    let messages = genericMessages(bytes)
    for message in messages {
        _ = try? WirelessInterface(decoding: message.attributes)
        _ = try? StationInfo(decoding: message.attributes)
        _ = try? NANFunctionHandle(decoding: message.attributes)
    }
    _ = try? Adapter.build(wiphyMessages: messages, interfaceMessages: messages, system: .none)
    // The performance probes' messages come from the peer over the data path: total on any bytes.
    for length in [24, ProbeMessage.LatencyProbe.size] where bytes.count >= length {
        let slice = Array(bytes.prefix(length))
        if let request = ProbeMessage.CapacityRequest(slice) {
            check(ProbeMessage.CapacityRequest(request.bytes) == request, "capacity request")
        }
        if let result = ProbeMessage.CapacityResult(slice) {
            check(ProbeMessage.CapacityResult(result.encoded) == result, "capacity result")
        }
        if let probe = ProbeMessage.LatencyProbe(slice) {
            check(ProbeMessage.LatencyProbe(probe.bytes) == probe, "latency probe")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch netlinkDecoder() {
    case .netlink: fuzzNetlink(bytes)
    case .nl80211event: fuzzEvents(bytes)
    case .nl80211reply: fuzzReplies(bytes)
    }
    return 0
}
