// nan-bench: how fast NANWire decodes and encodes typical frames, and what decoding allocates.
//
//   swift run -c release nan-bench [iterations]
//
// Frames: a publish SDF (SDA with matching filter + SDEA with service info) and a data-path request NAF
// (device capability, NDP, availability, NDC, NDL, NDL QoS, element container, CSIA, SCIA, shared key),
// each as the whole management frame nl80211 delivers (24-byte header + action body).
// Time: best of 5 rounds of `iterations` frames on one thread, reported as ns per frame and frames/s, both
// wall-clock and the thread's CPU time (NANSystem.ThreadCPUTime), which stays fair on a loaded machine.
// Memory: glibc heap bytes in use (NANSystem.HeapUsage, mallinfo2; the bench itself calls no C) before
// and after decoding 10 000 frames that are kept alive, divided by 10 000: the heap one decoded frame
// holds. Decoded byte fields are slices of the input buffer, so a decoded frame holding fewer bytes than
// the frame is long shows that no attribute copied the frame's bytes.
import NANSystem
import NANWire

func mac(_ s: String) -> MACAddress { MACAddress(s) ?? .zero }

let header = ManagementHeader(
    destination: .broadcast, source: mac("02:00:00:00:01:00"),
    bssid: mac("50:6f:9a:01:12:34"), sequenceControl: 0x0100)

func publishSDF(extraInfo: Int = 0) throws -> [UInt8] {
    let sda = ServiceDescriptorAttribute(
        serviceID: ServiceID(0xc5, 0x7e, 0xd9, 0xd5, 0xd1, 0x67), instanceID: 5,
        controlType: .publish,
        matchingFilter: try MatchingFilter(elements: [Array("v1".utf8), []]))
    let sdea = ServiceDescriptorExtensionAttribute(
        instanceID: 5, control: [.dataPathRequired, .securityRequired],
        serviceInfo: .init(
            protocolType: .generic,
            info: (Array("model=demo;port=8080".utf8) + [UInt8](repeating: 0x61, count: extraInfo))[...]))
    let sdf = ServiceDiscoveryFrame(messages: [ServiceDiscoveryMessage(descriptor: sda, descriptorExtension: sdea)])
    return try NANManagementFrame(header: header, body: .serviceDiscovery(sdf)).encoded()
}

func ndpRequestNAF() throws -> [UInt8] {
    let slots = TimeBitmap(control: 0x0018, bitmap: [0x0e, 0, 0, 0][...])
    let message = DataPathMessage(
        subtype: .dataPathRequest,
        ndp: .ndp(
            NDPAttribute(
                dialogToken: 1, type: .request, initiatorNDI: mac("02:00:00:00:02:01"), ndpID: 1,
                confirmRequired: true, securityPresent: true, publishID: 5)),
        deviceCapability: DeviceCapabilityAttribute(
            committedDWInfo: 0x0012, supportedBands: 0x14, operationMode: 1,
            antennas: 0x22, maxChannelSwitchTime: 1024, capabilities: 0x0a),
        availability: [
            NANAvailabilityAttribute(
                sequenceID: 1, control: 0x0011,
                entries: [
                    AvailabilityEntry(
                        control: 0x0201, timeBitmap: slots,
                        bandChannels: .channels([
                            ChannelEntry(operatingClass: 81, channelBitmap: 0x20, primaryChannelBitmap: 0)
                        ])),
                    AvailabilityEntry(control: 0x0202, bandChannels: .bands([2, 4])),
                ])
        ],
        ndl: NDLAttribute(
            dialogToken: 1, type: .request, ndcAttributePresent: true, qosAttributePresent: true, maxIdlePeriod: 300),
        ndlQoS: NDLQoSAttribute(minimumTimeSlots: 2, maximumLatency: 0xffff),
        ndc: NDCAttribute(
            ndcID: mac("50:6f:9a:01:00:00"), selected: true, schedule: [ScheduleEntry(mapID: 1, timeBitmap: slots)]),
        elementContainer: ElementContainerAttribute(elements: [
            InformationElement(id: 45, body: [UInt8](repeating: 0x11, count: 26)[...])
        ]),
        cipherSuiteInfo: CipherSuiteInfoAttribute(capabilities: 0, entries: [.init(suite: .skCCM128, publishID: 5)]),
        securityContextInfo: SecurityContextInfoAttribute(entries: [
            .init(type: 1, publishID: 5, identifier: [UInt8](0..<16)[...])
        ]),
        sharedKeyDescriptor: SharedKeyDescriptorAttribute(
            publishID: 5, keyDescriptor: [UInt8](repeating: 0x22, count: 95)[...]))
    var naf = header
    naf.destination = mac("02:00:00:00:01:00")
    naf.source = mac("02:00:00:00:02:00")
    return try NANManagementFrame(header: naf, body: .action(message.frame())).encoded()
}

/// Best-of-5 nanoseconds per call of `body` over `iterations` calls, in wall-clock time and in this
/// thread's CPU time (the fair figure when other processes share the cores).
func measure(_ iterations: Int, _ body: () throws -> Int) rethrows -> (wall: Double, cpu: Double?, sink: Int) {
    var bestWall = Double.infinity
    var bestCPU: Double?
    var sink = 0
    for _ in 0..<5 {
        let clock = ContinuousClock()
        let cpuStart = ThreadCPUTime.nanoseconds
        let start = clock.now
        for _ in 0..<iterations { sink &+= try body() }
        let elapsed = clock.now - start
        let cpuEnd = ThreadCPUTime.nanoseconds
        let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        bestWall = min(bestWall, ns / Double(iterations))
        if let cpuStart, let cpuEnd {
            let perFrame = Double(cpuEnd - cpuStart) / Double(iterations)
            bestCPU = min(bestCPU ?? .infinity, perFrame)
        }
    }
    return (bestWall, bestCPU, sink)
}

func heapHeldPerDecode(_ bytes: [UInt8]) throws -> Double? {
    let count = 10_000
    var kept: [NANManagementFrame] = []
    kept.reserveCapacity(count)
    guard let before = HeapUsage.bytesInUse else { return nil }
    for _ in 0..<count { kept.append(try NANManagementFrame(bytes: bytes)) }
    guard let after = HeapUsage.bytesInUse else { return nil }
    withExtendedLifetime(kept) {}
    return Double(after - before) / Double(count)
}

func format(_ value: Double, _ digits: Int = 0) -> String {
    let scale = [1.0, 10.0, 100.0, 1000.0][min(digits, 3)]
    let rounded = (value * scale).rounded() / scale
    return digits == 0 ? String(Int(rounded)) : String(rounded)
}

func report(_ name: String, _ bytes: [UInt8], iterations: Int) throws {
    let decoded = try NANManagementFrame(bytes: bytes)
    let decode = try measure(iterations) { try NANManagementFrame(bytes: bytes).body.attributes.count }
    let encode = try measure(iterations) { try decoded.encoded().count }
    let heap = try heapHeldPerDecode(bytes)
    print("\(name): \(bytes.count) bytes, \(decoded.body.attributes.count) attributes")
    for (what, m) in [("decode", decode), ("encode", encode)] {
        let cpu = m.cpu.map { "; CPU time \(format($0, 1)) ns/frame, \(format(1e9 / $0)) frames/s" } ?? ""
        print("  \(what): wall \(format(m.wall, 1)) ns/frame, \(format(1e9 / m.wall)) frames/s\(cpu)")
    }
    if let heap {
        print(
            "  heap held per decoded frame: \(format(heap)) bytes (frame: \(bytes.count) bytes, ratio \(format(heap / Double(bytes.count), 2)))"
        )
    } else {
        print("  heap held per decoded frame: unavailable (mallinfo2 needs glibc on x86-64)")
    }
    if decode.sink == 42 && encode.sink == 42 { print("") }  // keeps the results observable
}

// `nan-bench --decode-only sdf|naf N` decodes N frames and nothing else, for tools/bench-alloc, which runs it
// under valgrind's DHAT: the difference between N and 0 decodes is what N decodes allocate, counted at every
// malloc (short-lived allocations included), which the heap-held figure above cannot see.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--decode-only" {
    guard arguments.count == 3, let count = Int(arguments[2]), count >= 0 else {
        print("usage: nan-bench --decode-only sdf|naf COUNT")
        ProcessControl.exit(64)
    }
    do {
        let frame = try arguments[1] == "naf" ? ndpRequestNAF() : publishSDF()
        var sink = 0
        for _ in 0..<count { sink &+= try NANManagementFrame(bytes: frame).body.attributes.count }
        print("decoded \(count) frames (\(sink) attributes)")
    } catch {
        print("nan-bench: \(error)")
        ProcessControl.exit(1)
    }
    ProcessControl.exit(0)
}

let iterations = arguments.first.flatMap { Int($0) } ?? 200_000
do {
    print("nan-bench: \(iterations) frames per round, best of 5, one thread")
    try report("publish SDF", publishSDF(), iterations: iterations)
    try report("NDP request NAF", ndpRequestNAF(), iterations: iterations)
    // A copy of the frame's bytes would make a decoded frame hold more heap when its service info grows.
    if let small = try heapHeldPerDecode(publishSDF()), let large = try heapHeldPerDecode(publishSDF(extraInfo: 200)) {
        print(
            "copy check: +200 bytes of service info change the heap held per decoded SDF by \(format(large - small)) bytes"
        )
    }
} catch {
    print("nan-bench: \(error)")
}
