import NANSystem

/// Kinds of nl80211 events a runtime client can ask for. Frames are asked for by prefix instead
/// (``NANEventInterest/framePrefixes``).
public struct NANEventKinds: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt32
    /// Makes a set from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Cluster joined or started (`NAN_CLUSTER_JOINED`).
    public static let cluster = NANEventKinds(rawValue: 1 << 0)
    /// Discovery-window notifications (`NAN_NEXT_DW_NOTIFICATION`).
    public static let discoveryWindow = NANEventKinds(rawValue: 1 << 1)
    /// Transmit status of frames sent on the session (`FRAME_TX_STATUS`) and remain-on-channel periods, for watching them (`waware events`);
    /// a client that waits for its own frame's asks ``NANRuntime/acknowledgement(of:within:)``.
    public static let transmitStatus = NANEventKinds(rawValue: 1 << 2)
    /// Offloaded discovery: matches and terminated functions (`NAN_MATCH`, `DEL_NAN_FUNCTION`).
    public static let offloadedDiscovery = NANEventKinds(rawValue: 1 << 3)
    /// Schedule events: deferred update done, unaligned schedule updated.
    public static let schedule = NANEventKinds(rawValue: 1 << 4)
    /// Channel evacuation (`NAN_CHANNEL_EVAC`).
    public static let channelEvacuation = NANEventKinds(rawValue: 1 << 5)
    /// Interfaces added or removed on the runtime's radio (NAN data interfaces, for instance), other than the
    /// NAN management interface itself (its removal is always delivered, see ``NANRuntimeEvent``).
    public static let interfaces = NANEventKinds(rawValue: 1 << 6)
    /// Station events (peers on NAN data interfaces), once NANSystem decodes them.
    public static let stations = NANEventKinds(rawValue: 1 << 7)
    /// Key events, once NANSystem decodes them.
    public static let keys = NANEventKinds(rawValue: 1 << 8)
    /// Events this library does not decode, or could not (`unknown`, `malformed`).
    public static let undecoded = NANEventKinds(rawValue: 1 << 9)

    /// The kind of an nl80211 event, or nil for events routed otherwise (frames by prefix; overruns and the
    /// loss of the radio or NAN interface go to every client).
    static func of(_ event: NL80211Event) -> NANEventKinds? {
        switch event {
        case .clusterJoined: .cluster
        case .nextDiscoveryWindow: .discoveryWindow
        case .frameTxStatus, .remainOnChannel: .transmitStatus
        case .nanMatch, .nanFunctionTerminated: .offloadedDiscovery
        case .scheduleUpdateDone, .unalignedScheduleUpdated: .schedule
        case .channelsEvacuated: .channelEvacuation
        case .interfaceAdded, .interfaceRemoved: .interfaces
        case .unknown, .malformed: .undecoded
        case .frameReceived, .wiphyRemoved, .overrun: nil
        }
    }
}

/// What one runtime client wants to hear: event kinds, and received action frames by body prefix, in the
/// manner of iwd's frame watches.
///
/// A prefix is the start of the frame body after the 24-byte management header, e.g.
/// ``NANSystem/NANFramePrefix/serviceDiscovery`` (`04 09 50 6f 9a 13`) or
/// ``NANSystem/NANFramePrefix/nanAction`` (`04 09 50 6f 9a 18`). The runtime registers each prefix with the
/// kernel once, however many clients ask for it; a frame goes to every client with a matching prefix.
public struct NANEventInterest: Sendable, Hashable {
    /// Event kinds.
    public var kinds: NANEventKinds
    /// Action-frame body prefixes.
    public var framePrefixes: [[UInt8]]
    /// PASN Authentication frames (algorithm 7) to the NMI, for NAN pairing.
    public var authenticationFrames: Bool = false
    /// Events kept for a client that falls behind; when full, newer events are dropped and counted, and the
    /// client then reads ``NANRuntimeEvent/overrun(droppedEvents:)`` before the next event.
    public var bufferSize: Int

    /// Makes an interest.
    public init(
        kinds: NANEventKinds = [], framePrefixes: [[UInt8]] = [], authenticationFrames: Bool = false,
        bufferSize: Int = 1024
    ) {
        self.kinds = kinds
        self.framePrefixes = framePrefixes
        self.authenticationFrames = authenticationFrames
        self.bufferSize = max(2, bufferSize)
    }

    /// Whether a received frame's body starts with one of ``framePrefixes``.
    func wants(frame bytes: [UInt8]) -> Bool {
        if bytes.count >= 2, bytes[0] & 0xFC == 0xB0, bytes[1] & 0x03 == 0 {
            return authenticationFrames && NANEventInterest.body(of: bytes, startsWith: NANEventInterest.pasnPrefix)
        }
        return framePrefixes.contains { NANEventInterest.body(of: bytes, startsWith: $0) }
    }

    /// The body prefix of PASN Authentication frames: algorithm 7 (little-endian).
    static let pasnPrefix: [UInt8] = [0x07, 0x00]

    /// Whether `frame`'s body (after the 24-byte management header) starts with `prefix`.
    static func body(of frame: [UInt8], startsWith prefix: [UInt8]) -> Bool {
        let header = 24
        guard frame.count >= header + prefix.count else { return false }
        return frame[header..<(header + prefix.count)].elementsEqual(prefix)
    }
}
