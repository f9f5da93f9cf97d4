// libFuzzer entry point for the NANWire decoders.
//
// Built by tools/fuzz/run with `swiftc -sanitize=fuzzer,address` together with the NANWire sources (one
// module), so this file is not part of the package. The decoder under test is chosen by the environment
// variable NANWIRE_FUZZ_DECODER: sdf, naf, frame, management, attributes or keydescriptor (the RSN key
// descriptor a Shared-Key Descriptor attribute carries, tried with both NCS-SK MIC lengths) or pasn (a PASN
// Authentication frame body and its PASN Parameters element).
//
// libFuzzer hands the input over as a raw pointer; converting it to an array is the only unsafe step
// and it stays in this harness. Any decoder outcome is fine except a trap or a sanitizer report; a value
// that decodes must re-encode and decode to an equal value, otherwise the harness traps on purpose so
// libFuzzer saves the input.

enum FuzzDecoder: String {
    case sdf, naf, frame, management, attributes, keydescriptor, pasn
}

nonisolated(unsafe) var selectedDecoder: FuzzDecoder?

func decoder() -> FuzzDecoder {
    if let selectedDecoder { return selectedDecoder }
    let name = getenvString("NANWIRE_FUZZ_DECODER") ?? "frame"
    let chosen = FuzzDecoder(rawValue: name) ?? .frame
    selectedDecoder = chosen
    return chosen
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { preconditionFailure("round trip broke: \(message())") }
}

func fuzz(_ bytes: [UInt8]) {
    switch decoder() {
    case .sdf:
        guard let sdf = try? ServiceDiscoveryFrame(actionBody: bytes) else { return }
        _ = try? sdf.messages()
        if let again = try? ServiceDiscoveryFrame(actionBody: sdf.encoded()) {
            check(again == sdf, "SDF")
        } else {
            check(false, "SDF re-decode")
        }
    case .naf:
        guard let naf = try? NANActionFrame(actionBody: bytes) else { return }
        if let message = try? DataPathMessage(naf) {
            // The peer schedule we would install from it: total on any availability.
            let peer = PeerAvailability(message.availability)
            check(
                peer.commonSlots(with: .preferred(fiveGHz: .channel149)).allSatisfy { (0..<32).contains($0) },
                "peer schedule")
            check(
                (try? DataPathMessage(NANActionFrame(actionBody: message.frame().encoded()))) == message,
                "data path message")
            if let skda = message.sharedKeyDescriptor { checkKeyDescriptor(skda.keyDescriptor) }
        }
        if let message = try? ScheduleMessage(naf) {
            check(
                (try? ScheduleMessage(NANActionFrame(actionBody: message.frame().encoded()))) == message,
                "schedule message")
            // A peer's schedule update as the data path reads it: total, and the slots it yields in range.
            if let update = try? ScheduleUpdate(message) {
                check(!update.availability.maps.isEmpty, "schedule update without a map")
                check(
                    update.availability.commonSlots(with: .preferred(fiveGHz: .channel149)).allSatisfy {
                        (0..<32).contains($0)
                    }, "schedule update slots")
            }
        }
        check((try? NANActionFrame(actionBody: naf.encoded())) == naf, "NAF")
    case .frame:
        guard let frame = try? NANFrame(actionBody: bytes) else { return }
        check((try? NANFrame(actionBody: frame.encoded())) == frame, "NAN frame")
    case .management:
        guard let frame = try? NANManagementFrame(bytes: bytes) else { return }
        check((try? NANManagementFrame(bytes: frame.encoded())) == frame, "management frame")
    case .keydescriptor:
        checkKeyDescriptor(bytes[...])
    case .pasn:
        guard let frame = try? PASNAuthenticationFrame(decoding: bytes[...]) else { return }
        check((try? frame.encoded()) == bytes, "PASN authentication body")
        if let parameters = try? frame.parameters(), let element = try? parameters.element(sequence: frame.sequence) {
            var rebuilt = frame
            rebuilt.elements = [element]
            check(
                (try? PASNAuthenticationFrame(decoding: rebuilt.encoded()[...]).parameters()) == parameters,
                "PASN parameters")
        }
    case .attributes:
        guard let list = try? NANAttribute.decodeList(ByteReader(bytes)) else { return }
        var writer = ByteWriter()
        check((try? NANAttribute.encodeList(list, into: &writer)) != nil, "attribute list encode")
        check((try? NANAttribute.decodeList(ByteReader(writer.bytes))) == list, "attribute list")
    }
}

/// Decodes `bytes` as an RSN key descriptor with each NCS-SK MIC length; what decodes must round-trip.
func checkKeyDescriptor(_ bytes: ArraySlice<UInt8>) {
    for micLength in [16, 24] {
        guard let descriptor = try? RSNKeyDescriptor(decoding: bytes, micLength: micLength) else { continue }
        check((try? descriptor.encoded()) == Array(bytes), "key descriptor (MIC \(micLength))")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    fuzz(bytes)
    return 0
}
