// storm-bench: a spoofed-frame storm against the discovery engine (issue 13 item 2). Run by
// tools/storm-bench, one process per storm size so each peak memory figure is that storm's own.
//
//   swift run -c release storm-bench FRAMES
//
// The engine runs offline (OfflineDiscoveryEngine, the benchmark hook: the real engine on a radio that
// sends nowhere) with one passive subscribe for a service S, its events consumed by a task as a program
// would. It is fed FRAMES hostile publish SDFs: every one from a new random source address (random
// instance ID, random service info bytes), half for S and half for a random service nobody subscribed to,
// with a discovery window every 500 frames (so ages advance: at a realistic rate a storm spans many DWs).
// Frames are made by patching a pre-encoded frame, so making them costs little next to handling them.
//
// It prints one line of KEY=VALUE fields: frames, seconds (wall), cpu_seconds (process), frames_per_s (wall),
// frames_per_cpu_s, peak_kib (the process's VmHWM: getrusage ru_maxrss) and start_kib (before the storm),
// the engine's table sizes at the end (peers, reported, largest_reported),
// events (delivered to the consumer), the engine counters (received, reported_evicted, events_dropped) and
// build (debug or release).
@_spi(Benchmark) import NANEngine
import NANSystem
import NANWire

/// xorshift64*: a fixed, fast pseudo-random sequence (the storm is the same on every run).
struct Random {
    var state: UInt64 = 0x9e37_79b9_7f4a_7c15
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_f491_4f6c_dd1d
    }
}

let cluster = MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x12, 0x34)
let subscribed = ServiceID(0xc5, 0x7e, 0xd9, 0xd5, 0xd1, 0x67)
let infoLength = 8

/// A publish SDF for `subscribed` from a placeholder source, and where to patch it.
func template() throws -> (bytes: [UInt8], serviceID: Int, info: Int) {
    let info = [UInt8](repeating: 0xa5, count: infoLength)
    let sda = ServiceDescriptorAttribute(
        serviceID: subscribed, instanceID: InstanceID(rawValue: 1), controlType: .publish, serviceInfo: info[...])
    let sdf = ServiceDiscoveryFrame(messages: [ServiceDiscoveryMessage(descriptor: sda)])
    let header = ManagementHeader(
        destination: .broadcast, source: MACAddress(0x02, 0, 0, 0, 0, 1), bssid: cluster, sequenceControl: 0)
    let bytes = try NANManagementFrame(header: header, body: .serviceDiscovery(sdf)).encoded()
    let id = [0xc5, 0x7e, 0xd9, 0xd5, 0xd1, 0x67] as [UInt8]
    guard let at = (0...(bytes.count - id.count)).first(where: { Array(bytes[$0..<($0 + id.count)]) == id }),
        let infoAt = (0...(bytes.count - infoLength)).last(where: { Array(bytes[$0..<($0 + infoLength)]) == info })
    else { throw StormError("the template frame has no service ID or info where expected") }
    return (bytes, at, infoAt)
}

struct StormError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func seconds(_ d: Duration) -> Double { d.inSeconds }

@main
struct StormBench {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let first = arguments.first, let frames = Int(first), frames > 0 else {
            throw StormError("usage: storm-bench FRAMES")
        }
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        let (base, serviceAt, infoAt) = try template()
        let offline = await OfflineDiscoveryEngine(localAddress: MACAddress(0x02, 0, 0, 0, 0xff, 0), cluster: cluster)
        let session = try await offline.engine.subscribe(SubscribeConfiguration(serviceID: subscribed))
        let consumer = Task {
            var count = 0
            for await _ in session { count += 1 }
            return count
        }
        var random = Random()
        let startUsage = ProcessUsage.current
        let clock = ContinuousClock()
        let start = clock.now
        for n in 0..<frames {
            var frame = base
            let r = random.next()
            // Source: a random locally administered unicast address (address 2, bytes 10..<16).
            frame[10] = UInt8(truncatingIfNeeded: r) & 0xfc | 0x02
            for k in 1..<6 { frame[10 + k] = UInt8(truncatingIfNeeded: r >> (8 * UInt64(k))) }
            let s = random.next()
            if s & 1 == 1 {
                for k in 0..<6 { frame[serviceAt + k] = UInt8(truncatingIfNeeded: s >> (8 * UInt64(k + 1))) }
            }
            frame[serviceAt + 6] = UInt8(truncatingIfNeeded: s >> 56) | 1  // instance ID, never 0
            let i = random.next()
            for k in 0..<infoLength { frame[infoAt + k] = UInt8(truncatingIfNeeded: i >> (8 * UInt64(k))) }
            await offline.receive(frame, signal: -40)
            if n % 500 == 499 { await offline.discoveryWindow() }
        }
        let elapsed = clock.now - start
        let endUsage = ProcessUsage.current
        let sizes = await offline.tableSizes()
        let statistics = await offline.engine.statistics()
        await session.stop()
        let events = await consumer.value
        let wall = seconds(elapsed)
        let cpu = cpuSeconds(from: startUsage, to: endUsage)
        var fields: [(String, String)] = [
            ("frames", "\(frames)"),
            ("seconds", format(wall)),
            ("cpu_seconds", cpu.map(format) ?? "NA"),
            ("frames_per_s", "\(Int((Double(frames) / wall).rounded()))"),
            ("frames_per_cpu_s", cpu.map { "\(Int((Double(frames) / $0).rounded()))" } ?? "NA"),
            ("start_kib", startUsage.map { "\($0.peakResidentKiB)" } ?? "NA"),
            ("peak_kib", endUsage.map { "\($0.peakResidentKiB)" } ?? "NA"),
        ]
        fields += [
            ("peers", "\(sizes.peers)"), ("reported", "\(sizes.reportedPeerInstances)"),
            ("largest_reported", "\(sizes.largestReported)"), ("events", "\(events)"),
            ("received", "\(statistics.framesReceived)"), ("undecodable", "\(statistics.framesUndecodable)"),
            ("reported_evicted", "\(statistics.reportedEvicted)"), ("events_dropped", "\(statistics.eventsDropped)"),
            ("build", build),
        ]
        print(fields.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
    }
}

/// The process CPU time between two readings, in seconds.
func cpuSeconds(from a: ProcessUsage?, to b: ProcessUsage?) -> Double? {
    guard let a, let b else { return nil }
    return Double(b.cpuNanoseconds - a.cpuNanoseconds) / 1e9
}

func format(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
