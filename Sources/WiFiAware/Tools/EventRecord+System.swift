import NANSystem
import NANWire

extension EventRecord {
    /// The record for a library event; `phyNames` turns wiphy indexes into phy names where known.
    init(_ event: NL80211Event, phyNames: [UInt32: String] = [:]) {
        func place(_ record: inout EventRecord, wiphy: WiphyIndex?, wdev: WirelessDeviceID?) {
            let index = wiphy?.rawValue ?? wdev?.wiphy.rawValue
            record.wiphy = index
            record.phy = index.flatMap { phyNames[$0] }
            record.wdev = wdev?.description
        }
        switch event {
        case .clusterJoined(let wdev, let clusterID, let isNew):
            self.init("clusterJoined")
            place(&self, wiphy: nil, wdev: wdev)
            self.clusterID = clusterID.description
            newCluster = isNew
        case .nextDiscoveryWindow(let wdev, let frequency):
            self.init("discoveryWindow")
            place(&self, wiphy: nil, wdev: wdev)
            self.frequency = Int(frequency.rawValue)
        case .nanMatch(let match):
            self.init("nanMatch")
            place(&self, wiphy: nil, wdev: match.wdev)
            peer = match.peer.description
            cookie = "0x" + String(match.cookie.rawValue, radix: 16)
            localInstance = Int(match.localInstance.rawValue)
            peerInstance = Int(match.peerInstance.rawValue)
            peerFunction = String(describing: match.peerType)
        case .nanFunctionTerminated(let cookie, let instance, let reason):
            self.init("functionTerminated")
            self.cookie = "0x" + String(cookie.rawValue, radix: 16)
            localInstance = Int(instance.rawValue)
            self.reason = String(describing: reason)
        case .scheduleUpdateDone(let wdev, let success):
            self.init("scheduleUpdateDone")
            place(&self, wiphy: nil, wdev: wdev)
            self.success = success
        case .unalignedScheduleUpdated(let wiphy, let wdev, let schedule):
            self.init("unalignedScheduleUpdated")
            place(&self, wiphy: wiphy, wdev: wdev)
            blob = EventChannel.hex(schedule)
        case .channelsEvacuated(let wiphy, let wdev, let evacuated):
            self.init("channelsEvacuated")
            place(&self, wiphy: wiphy, wdev: wdev)
            channels = evacuated.map { channel in
                EventChannel(
                    frequency: Int(channel.frequency.rawValue), width: channel.width?.description,
                    centerFrequency1: channel.centerFrequency1.map { Int($0.rawValue) },
                    channelEntry: channel.channelEntry.map(EventChannel.hex),
                    rxNss: channel.receiveSpatialStreams.map(Int.init))
            }
        case .interfaceAdded(let interface):
            self.init("interfaceAdded")
            place(&self, wiphy: interface.wiphy, wdev: interface.wdev)
            self.interface = interface.name
            interfaceType = interface.type.description
            address = interface.address?.description
        case .interfaceRemoved(let wiphy, let wdev, let index):
            self.init("interfaceRemoved")
            place(&self, wiphy: wiphy, wdev: wdev)
            if let index { detail = "ifindex \(index.rawValue)" }
        case .wiphyRemoved(let wiphy):
            self.init("adapterRemoved")
            place(&self, wiphy: wiphy, wdev: nil)
        case .overrun(let droppedEvents):
            self.init("eventsLost")
            dropped = droppedEvents
        case .malformed(let command, let error):
            self.init("malformedEvent")
            self.command = Int(command)
            detail = error.description
        case .frameReceived(let wdev, let frequency, _, let bytes):
            self.init("frameReceived")
            place(&self, wiphy: nil, wdev: wdev)
            self.frequency = Int(frequency.rawValue)
            detail = "\(bytes.count) bytes"
        case .frameTxStatus(let cookie, let acked, _):
            self.init("frameStatus")
            self.cookie = "0x" + String(cookie.rawValue, radix: 16)
            success = acked
        case .remainOnChannel(let period):
            self.init(period.ended ? "remainOnChannelEnded" : "remainOnChannelStarted")
            place(&self, wiphy: nil, wdev: period.wdev)
            cookie = period.cookie.description
            frequency = Int(period.frequency.rawValue)
        case .unknown(let command):
            self.init("otherEvent")
            self.command = Int(command)
        }
    }

    /// The wiphy the event concerns, if it names one (directly or through a wdev).
    static func wiphy(of event: NL80211Event) -> WiphyIndex? {
        switch event {
        case .clusterJoined(let wdev, _, _), .nextDiscoveryWindow(let wdev, _), .scheduleUpdateDone(let wdev, _):
            return wdev.wiphy
        case .nanMatch(let match): return match.wdev?.wiphy
        case .frameReceived(let wdev, _, _, _): return wdev?.wiphy
        case .remainOnChannel(let period): return period.wdev?.wiphy
        case .interfaceAdded(let interface): return interface.wiphy
        case .interfaceRemoved(let wiphy, let wdev, _): return wiphy ?? wdev?.wiphy
        case .wiphyRemoved(let wiphy): return wiphy
        case .unalignedScheduleUpdated(let wiphy, let wdev, _), .channelsEvacuated(let wiphy, let wdev, _):
            return wiphy ?? wdev?.wiphy
        case .nanFunctionTerminated, .frameTxStatus, .overrun, .malformed, .unknown: return nil
        }
    }
}
