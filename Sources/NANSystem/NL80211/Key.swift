public import NANWire
/// A cipher suite selector (OUI + type, as a u32: `00-0F-AC:4` is `0x000FAC04`).
public struct CipherSuite: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The selector.
    public let rawValue: UInt32
    /// Wraps a selector.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// CCMP-128.
    public static let ccmp128 = CipherSuite(rawValue: 0x000F_AC04)
    /// GCMP-256.
    public static let gcmp256 = CipherSuite(rawValue: 0x000F_AC09)
    /// BIP-CMAC-128 (group management).
    public static let bipCMAC128 = CipherSuite(rawValue: 0x000F_AC06)
    /// BIP-GMAC-256 (group management).
    public static let bipGMAC256 = CipherSuite(rawValue: 0x000F_AC0C)

    /// `00-0f-ac:4`.
    public var description: String {
        let oui = rawValue >> 8
        let octets = [oui >> 16, oui >> 8, oui].map { UInt8(truncatingIfNeeded: $0) }
        return Hex.string(octets, separator: "-") + ":" + String(rawValue & 0xff)
    }
}

/// A key to install with ``NL80211Session/addKey(_:)`` (`NL80211_CMD_NEW_KEY`, nested `NL80211_ATTR_KEY`).
/// Keys on NAN interfaces need ``NANSupport/secure``.
public struct NANKey: Sendable, Hashable {
    /// The interface the key is for.
    public var scope: StationScope
    /// The peer for a pairwise key; nil for a group key.
    public var peer: MACAddress?
    /// The cipher.
    public var cipher: CipherSuite
    /// The key index (0–3 for data keys, 4–5 for management group keys).
    public var index: UInt8
    /// The key material.
    public var data: [UInt8]
    /// The receive sequence counter to start from, if any.
    public var sequence: [UInt8]?

    /// Creates a key.
    public init(
        scope: StationScope, peer: MACAddress?, cipher: CipherSuite, index: UInt8, data: [UInt8],
        sequence: [UInt8]? = nil
    ) {
        self.scope = scope
        self.peer = peer
        self.cipher = cipher
        self.index = index
        self.data = data
        self.sequence = sequence
    }
}

extension NANKey {
    /// The pairwise key (TK) of a peer's NDI station on our NDI `interface`: key index 0, no RSC.
    public static func pairwise(
        _ temporalKey: [UInt8], cipher: CipherSuite, peerNDI: MACAddress, ofPeer peerNMI: MACAddress,
        on interface: InterfaceIndex
    ) -> NANKey {
        NANKey(
            scope: .dataInterface(interface, peerManagementAddress: peerNMI), peer: peerNDI, cipher: cipher, index: 0,
            data: temporalKey)
    }
}

extension CipherSuite {
    /// The key length the cipher takes, for the ciphers a NAN data path uses (nil for the others).
    var keyLength: Int? {
        switch self {
        case .ccmp128, .bipCMAC128: 16
        case .gcmp256, .bipGMAC256: 32
        default: nil
        }
    }
}

extension NL80211Request {
    /// `NEW_KEY`. A key whose length does not fit its cipher is refused before sending.
    static func newKey(_ key: NANKey) throws(NetlinkError) -> NL80211Request {
        typealias K = NL80211KeyAttribute
        if let length = key.cipher.keyLength, key.data.count != length {
            throw NetlinkError(
                code: .invalidRequest, call: "NL80211_CMD_NEW_KEY",
                detail: "a \(key.cipher) key is \(length) bytes, not \(key.data.count)")
        }
        var w = NetlinkAttributeWriter()
        switch key.scope {
        case .managementInterface(let wdev): try w.put(A.wdev, wdev.rawValue)
        case .dataInterface(let index, _): try w.put(A.ifindex, index.rawValue)
        }
        if let peer = key.peer { try w.put(A.mac, bytes: peer.bytes) }
        try w.nest(A.key) { (k) throws(NetlinkError) in
            try k.put(K.data, bytes: key.data)
            try k.put(K.idx, key.index)
            try k.put(K.cipher, key.cipher.rawValue)
            if let sequence = key.sequence { try k.put(K.seq, bytes: sequence) }
            let type = key.peer == nil ? NL80211KeyTypeCode.group : .pairwise
            try k.put(K.type, type.rawValue)
        }
        return NL80211Request(command: .newKey, attributes: w.bytes)
    }
}
