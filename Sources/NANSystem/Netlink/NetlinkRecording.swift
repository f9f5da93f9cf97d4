/// A frame nl80211 delivered to this host (an `NL80211_CMD_FRAME` event), read back from a recording.
public struct RecordedFrame: Sendable, Hashable {
    /// The wireless device the frame arrived on, when the event named one.
    public var wdev: WirelessDeviceID?
    /// The channel it was received on (0 when the event did not say).
    public var frequency: Frequency
    /// The received signal strength in dBm, when reported.
    public var signalDBM: Int32?
    /// The whole 802.11 management frame (`NL80211_ATTR_FRAME`), header included.
    public var bytes: [UInt8]

    /// Creates a recorded frame.
    public init(wdev: WirelessDeviceID?, frequency: Frequency, signalDBM: Int32?, bytes: [UInt8]) {
        self.wdev = wdev
        self.frequency = frequency
        self.signalDBM = signalDBM
        self.bytes = bytes
    }
}

/// Reads back what `WAWARE_NL_RECORD=<dir>` wrote: netlink messages, header included, one per
/// `.nlmsg` file, or several back to back (a `.nlmsgs` fixture is such files concatenated).
///
/// The recorder stores every message a session receives (replies and events of any family), so the
/// reader keeps only what it is asked for and skips the rest.
public enum NetlinkRecording {
    /// The received frames (nl80211 `CMD_FRAME` events carrying `ATTR_FRAME`) in `bytes`, in order.
    ///
    /// Replies (non-zero sequence number, such as the answer to our own `CMD_FRAME` send), control
    /// messages and other events are skipped.
    /// - Throws: ``NetlinkError`` `malformedMessage` when a message header or attribute is cut off.
    public static func receivedFrames(in bytes: [UInt8]) throws(NetlinkError) -> [RecordedFrame] {
        var frames: [RecordedFrame] = []
        for message in try NetlinkMessage.split(datagram: bytes) where message.type >= 0x10 && message.sequence == 0 {
            let generic = try GenericNetlinkMessage(message)
            guard generic.command == NL80211Command.frame.rawValue else { continue }
            switch NL80211Event.decode(generic) {
            case .frameReceived(let wdev, let frequency, let signal, let frame):
                frames.append(RecordedFrame(wdev: wdev, frequency: frequency, signalDBM: signal, bytes: frame))
            case .malformed(_, let error):
                throw error
            default:
                continue
            }
        }
        return frames
    }
}
