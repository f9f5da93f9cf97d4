import Foundation
import Testing

// What the state-machine fuzz tests share (issue 24): a seeded PRNG of our own, so a failing sequence is
// reproduced from the seed printed with it; the frame mutations; and the loop that runs the sequences.

/// SplitMix64: small, fast and fully determined by its seed, which is all a reproducible fuzzer needs (the
/// system generator cannot be seeded).
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    /// One element of a non-empty collection.
    mutating func pick<C: Collection>(_ elements: C) -> C.Element {
        elements[elements.index(elements.startIndex, offsetBy: Int.random(in: 0..<elements.count, using: &self))]
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) } }
}

/// How many sequences to run and from which seed. The defaults keep `swift test` quick; the environment
/// runs more (tools/fuzz/run statemachines) or one seed again: sequence `i` runs with seed `base + i`, so a
/// printed seed is replayed with `WAWARE_SM_FUZZ_SEED=<seed> WAWARE_SM_FUZZ_SEQUENCES=1`.
struct FuzzBudget {
    let base: UInt64
    let sequences: Int

    /// `defaultSequences` unless WAWARE_SM_FUZZ_SEQUENCES says otherwise; the seed from WAWARE_SM_FUZZ_SEED
    /// (decimal or 0x-hex), else a fixed one, so the default run is the same on every machine.
    static func fromEnvironment(defaultSequences: Int) -> FuzzBudget {
        let environment = ProcessInfo.processInfo.environment
        let sequences = environment["WAWARE_SM_FUZZ_SEQUENCES"].flatMap { Int($0) } ?? defaultSequences
        let base = environment["WAWARE_SM_FUZZ_SEED"].flatMap(parseSeed) ?? 0x5EED_0024
        return FuzzBudget(base: base, sequences: max(0, sequences))
    }

    private static func parseSeed(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    /// Runs `sequence` once per seed and records the first failure with its seed (one failing sequence
    /// says enough; the rest would repeat it). Prints a one-line summary tools/fuzz/run collects.
    func run(_ name: String, _ sequence: (inout FuzzRandom, UInt64) async throws -> String?) async rethrows {
        let clock = ContinuousClock()
        let started = clock.now
        var ran = 0
        for index in 0..<sequences {
            let seed = base &+ UInt64(index)
            var random = FuzzRandom(seed: seed)
            ran += 1
            if let failure = try await sequence(&random, seed) {
                Issue.record("\(name): seed 0x\(String(seed, radix: 16)) (sequence \(index)): \(failure)")
                break
            }
        }
        print("sm-fuzz: \(name): \(ran) sequences from seed 0x\(String(base, radix: 16)) in \(clock.now - started)")
    }
}

/// The byte-level mutations of a recorded frame. Sizes stay within the frame plus a few dozen bytes: the
/// decoders are fuzzed for size by libFuzzer, here the point is the state machine behind them.
enum FrameMutation: CaseIterable {
    case flipBits, setByte, truncate, extend, insert, delete, swapField

    /// `frame` mutated once by a mutation drawn from `random`; `others` lends fields for a swap. The
    /// first `keep` bytes (a header a receiver routes by) stay as they are.
    static func mutate(_ frame: [UInt8], others: [[UInt8]], keep: Int = 0, using random: inout FuzzRandom) -> [UInt8] {
        var bytes = frame
        let start = min(keep, bytes.count)
        guard bytes.count > start else { return bytes + random.bytes(Int.random(in: 1...16, using: &random)) }
        let at = Int.random(in: start..<bytes.count, using: &random)
        switch random.pick(allCases) {
        case .flipBits:
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: start..<bytes.count, using: &random)] ^=
                    1 << UInt8.random(in: 0...7, using: &random)
            }
        case .setByte:
            bytes[at] = random.pick([
                0, 0xFF, bytes[at] &+ 1, bytes[at] &- 1, UInt8.random(in: 0...255, using: &random),
            ])
        case .truncate:
            bytes.removeSubrange(at...)
        case .extend:
            bytes += random.bytes(Int.random(in: 1...48, using: &random))
        case .insert:
            bytes.insert(contentsOf: random.bytes(Int.random(in: 1...8, using: &random)), at: at)
        case .delete:
            bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &random)))
        case .swapField:
            // A field of another frame at the same place: the closest a random mutation gets to a frame
            // that parses and carries a value from another message (a nonce, a MIC, a replay counter).
            guard let other = others.randomElement(using: &random), other.count > at else {
                bytes[at] ^= 0xA5
                break
            }
            let length = min(Int.random(in: 1...32, using: &random), other.count - at, bytes.count - at)
            bytes.replaceSubrange(at..<at + length, with: other[at..<at + length])
        }
        if bytes == frame, bytes.count > start { bytes[Int.random(in: start..<bytes.count, using: &random)] ^= 0x01 }
        return bytes
    }
}

/// Everything a value holds, private stored properties too, as text: two snapshots that differ show that a
/// call changed some state, whichever it was.
func stateSnapshot(_ value: some Any) -> String {
    var text = ""
    dump(value, to: &text)
    return text
}
