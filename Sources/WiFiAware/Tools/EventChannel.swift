import NANWire

/// One NAN channel named by an event record (`channelsEvacuated`): the fields the kernel reported.
///
/// The field names are part of the JSON schema documented in docs/cli.md.
struct EventChannel: Codable, Equatable, Sendable {
    /// The control channel in MHz.
    var frequency: Int
    /// The width (`20 MHz`, `80 MHz`), if reported.
    var width: String?
    /// The centre of the (first segment of the) channel in MHz, if reported.
    var centerFrequency1: Int?
    /// The NAN Channel Entry as hex (`512000000000`), if reported.
    var channelEntry: String?
    /// Receive spatial streams, if reported.
    var rxNss: Int?

    /// `5745 MHz (80 MHz, centre 5775 MHz, entry 512000000000, 2 rx streams)`, or just `2437 MHz`.
    var text: String {
        let details = [
            width,
            centerFrequency1.map { "centre \($0) MHz" },
            channelEntry.map { "entry \($0)" },
            rxNss.map { "\($0) rx stream\($0 == 1 ? "" : "s")" },
        ].compactMap { $0 }
        return "\(frequency) MHz" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    /// Bytes as lowercase hex without separators, for record fields.
    static func hex(_ bytes: [UInt8]) -> String {
        Hex.string(bytes)
    }
}
