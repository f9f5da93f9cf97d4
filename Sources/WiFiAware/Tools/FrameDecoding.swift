import NANCrypto
import NANSystem
public import NANWire

/// A frame nl80211 delivered, as a netlink recording (`WAWARE_NL_RECORD`) holds it: what `waware decode
/// --nlmsgs` reads.
@_spi(Tools) public struct ReceivedFrame: Sendable {
    /// The channel it was received on, in MHz (0 when the event did not say).
    public var frequency: Int
    /// The received signal strength in dBm, when reported.
    public var signalDBM: Int?
    /// The whole 802.11 management frame, header included.
    public var bytes: [UInt8]

    /// The frames received in a recording's bytes (one `.nlmsg` message or a `.nlmsgs` fixture); the other
    /// messages are skipped.
    /// - Throws: ``WAError`` `invalidArgument` naming the malformed netlink message.
    public static func frames(in recording: [UInt8]) throws(WAError) -> [ReceivedFrame] {
        do throws(NetlinkError) {
            return try NetlinkRecording.receivedFrames(in: recording).map { frame in
                ReceivedFrame(
                    frequency: Int(frame.frequency.rawValue), signalDBM: frame.signalDBM.map(Int.init),
                    bytes: frame.bytes)
            }
        } catch {
            throw WAError(.invalidArgument, message: error.description, underlying: error)
        }
    }
}

extension ServiceID {
    /// The NAN service ID of any service name, valid ``WAServiceName`` or not (`waware decode --service`):
    /// SHA-256 of the lower-cased name, as every NAN stack derives it.
    /// - Throws: NANCrypto's error if libcrypto fails.
    @_spi(Tools) public static func hashing(_ name: String) throws -> ServiceID {
        try ServiceID(serviceName: name)
    }
}
