import NANWire
@testable import NANEngine

/// What the data-path negotiation tests share: a local device as the engine builds one, a message sent
/// through the air (encoded and typed again), and the messages among a list of actions.
enum DataPathFixture {
    /// A local device with `nmi`, the preferred schedule (5 GHz on `fiveGHz`, none when nil), and the device
    /// capability and HT elements an engine advertises.
    static func device(_ nmi: MACAddress, fiveGHz: DataPathChannel? = .channel149) -> DataPathLocalDevice {
        DataPathLocalDevice(nmi: nmi, schedule: .preferred(fiveGHz: fiveGHz),
                            deviceCapability: DeviceCapabilityAttribute(committedDWInfo: 0x0009, supportedBands: 0x14, capabilities: 0x08),
                            capabilityElements: [InformationElement(id: 45, body: [UInt8](repeating: 0, count: 26)[...])],
                            ndcID: MACAddress(0x50, 0x6f, 0x9a, 0x01, 0, 1))
    }

    /// Sends `message` through the air: encode to bytes and type again, as a receiver would.
    static func overTheAir(_ message: DataPathMessage) throws -> DataPathMessage {
        var writer = ByteWriter()
        try message.frame().encode(into: &writer)
        return try DataPathMessage(NANActionFrame(actionBody: writer.bytes))
    }

    /// The open messages the actions send, in order.
    static func sends(_ actions: [DataPathAction]) -> [DataPathMessage] {
        actions.compactMap { if case .send(let m, _, _) = $0 { return m } else { return nil } }
    }
}
