public import NANWire

// Public initialisers for the values a discovery session reports, so that a layer that carries them
// elsewhere (the daemon's protocol) can make them again on the other side.

extension DiscoveryResult {
    /// Makes a result (without NIRA or bootstrapping methods).
    public init(
        peer: MACAddress, peerInstanceID: InstanceID, localInstanceID: InstanceID, serviceInfo: [UInt8],
        offersDataPath: Bool, radio: PeerRadioFacts
    ) {
        self.peer = peer
        self.peerInstanceID = peerInstanceID
        self.localInstanceID = localInstanceID
        self.serviceInfo = serviceInfo
        self.offersDataPath = offersDataPath
        self.radio = radio
    }
}

extension ReceivedMessage {
    /// Makes a message (without pairing attributes).
    public init(
        peer: MACAddress, peerInstanceID: InstanceID, localInstanceID: InstanceID, payload: [UInt8],
        radio: PeerRadioFacts, isProtected: Bool
    ) {
        self.peer = peer
        self.peerInstanceID = peerInstanceID
        self.localInstanceID = localInstanceID
        self.payload = payload
        self.radio = radio
        self.isProtected = isProtected
    }
}
