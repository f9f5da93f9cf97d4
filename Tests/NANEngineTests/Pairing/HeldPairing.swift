@testable import NANEngine
import NANWire

/// A PIN pairing from A to B over a held ``PairingEngineTests/LoopbackAir``: the test decides what each frame
/// becomes (delivered, lost, replayed) before the air delivers again.
struct HeldPairing {
    let air = PairingEngineTests.LoopbackAir()
    let initiator: PairingEngine
    let responder: PairingEngine
    /// A's pairing with B, running.
    let pairing: Task<PairedDeviceKeys, any Error>

    /// Engines A and B (B taking the test PIN) with `limits`; A's pairing started and its frame 1 held.
    init(limits: PairingEngine.Limits) async throws {
        let a = PairingEngineTests.a, b = PairingEngineTests.b, pin = PairingEngineTests.pin
        initiator = try await PairingEngineTests.engine(a, on: air, limits: limits)
        responder = try await PairingEngineTests.engine(b, on: air, limits: limits)
        await responder.setPolicy(password: pin, allowsOpportunistic: false)
        await air.hold()
        let engine = initiator
        pairing = Task { try await engine.pair(with: b, publishID: InstanceID(1), method: .password(pin)) }
        try await ForgedPASNFrameTests.held(1, on: air)
    }
}

extension PairingEngineTests.LoopbackAir {
    /// The frames held so far, taken off the air (never delivered).
    func takeHeld() -> [[UInt8]] {
        defer { if held != nil { held = [] } }
        return held ?? []
    }
}
