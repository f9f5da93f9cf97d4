import NANWire
@testable import NANEngine

/// What the data-path negotiation tests share: a local device as the engine builds one, a message sent
/// through the air (encoded and typed again), and the messages among a list of actions.
enum DataPathFixture {
    /// The open NDP request wpa_supplicant 2.12 sent (../shared/fixtures/wpa_supplicant-2.12/open-ndp-naf-data-path-request-01.hex):
    /// its schedule is 2437 MHz in slots 1–3 and 5180 MHz (80 MHz block, primary channel 36) in slots 4–31.
    static let wpaOpenRequest =
        "d0000000420000000000420000000100506f9a01ee4000000409506f9a18050f09000049041417220000082a02000003291600010000520000000100010901010700506f9a02aabbcc124c000131000e00e1121800040e00000011512000000e00e112180004f0ffffff11800100012700ea029151ff0700730f000074030000750300007c0f00007d1f00007e0300007f030000802100001406000100001019001d2b00002d1a72101bffff000000000000000000000100000000000000000000bf0cfa048003aaaa0000aaaa0000"

    /// A local device with `nmi`, the preferred schedule (5 GHz on `fiveGHz`, none when nil), and the device
    /// capability and HT elements an engine advertises.
    static func device(_ nmi: MACAddress, fiveGHz: DataPathChannel? = .channel149) -> DataPathLocalDevice {
        DataPathLocalDevice(
            nmi: nmi, schedule: .preferred(fiveGHz: fiveGHz),
            deviceCapability: DeviceCapabilityAttribute(
                committedDWInfo: 0x0009, supportedBands: 0x14, capabilities: 0x08),
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
