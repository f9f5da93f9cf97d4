/// One line of output of `waware cluster start` or `waware events`: what happened, with the fields that
/// apply. Absent fields are left out of the JSON, so every line has `event` and only what it needs.
///
/// The field names are part of the JSON schema documented in docs/cli.md.
struct EventRecord: Codable, Equatable, Sendable {
    /// What happened: `started`, `clusterJoined`, `discoveryWindow`, `nanMatch`, `functionTerminated`,
    /// `scheduleUpdateDone`, `unalignedScheduleUpdated`, `channelsEvacuated`, `interfaceAdded`, `interfaceRemoved`, `adapterRemoved`, `eventsLost`,
    /// `malformedEvent`, `otherEvent`, `stopped`.
    var event: String
    /// Wall-clock time, ISO 8601 with milliseconds (`waware events`).
    var time: String?
    /// Seconds since NAN was started (`waware cluster start`).
    var elapsedSeconds: Double?
    /// The wiphy index the event concerns.
    var wiphy: UInt32?
    /// The phy name, when known.
    var phy: String?
    /// The wireless device id, in hex.
    var wdev: String?
    /// The interface name.
    var interface: String?
    /// The interface type (`NAN`, `managed`).
    var interfaceType: String?
    /// A MAC address: the interface's own address.
    var address: String?
    /// The NAN cluster ID (`50:6f:9a:01:xx:xx`).
    var clusterID: String?
    /// Whether this device created the cluster rather than joining one.
    var newCluster: Bool?
    /// A channel frequency in MHz (the next discovery window's).
    var frequency: Int?
    /// The NAN master preference used.
    var masterPreference: Int?
    /// The NAN bands requested (`2.4GHz`, `5GHz`); empty when the driver chooses.
    var bands: [String]?
    /// The peer's NAN management address.
    var peer: String?
    /// A NAN function cookie.
    var cookie: String?
    /// The local NAN function's instance id.
    var localInstance: Int?
    /// The peer NAN function's instance id.
    var peerInstance: Int?
    /// The peer function type (`publish`, `subscribe`, `follow-up`).
    var peerFunction: String?
    /// Why something ended.
    var reason: String?
    /// Whether an operation succeeded.
    var success: Bool?
    /// Raw bytes as hex: the device's new Unaligned Schedule attribute(s) (`unalignedScheduleUpdated`).
    var blob: String?
    /// The NAN channels concerned (`channelsEvacuated`).
    var channels: [EventChannel]?
    /// How many events were lost, when known.
    var dropped: Int?
    /// The nl80211 command number of an event shown only by number.
    var command: Int?
    /// Free text for what has no field of its own.
    var detail: String?

    /// Creates a record of kind `event` with no other fields; set the ones that apply.
    init(_ event: String) { self.event = event }

    /// The text line for this record, without the time prefix.
    var text: String {
        let on = [phy ?? wiphy.map { "phy#\($0)" }, interface ?? wdev.map { "wdev \($0)" }]
            .compactMap { $0 }.joined(separator: " ")
        let place = on.isEmpty ? "" : " on \(on)"
        switch event {
        case "started":
            let bandText =
                (bands ?? []).isEmpty ? "bands chosen by the driver" : "bands \((bands ?? []).joined(separator: ","))"
            return "NAN started\(place) (wdev \(wdev ?? "?"), address \(address ?? "?"), master preference "
                + "\(masterPreference.map(String.init) ?? "?"), \(bandText)); waiting for a cluster..."
        case "clusterJoined":
            let how = newCluster == true ? "created a new cluster" : "joined an existing cluster"
            return "cluster \(clusterID ?? "?"): \(how)\(place)"
        case "discoveryWindow":
            return "discovery window\(place) at \(frequency.map { "\($0) MHz" } ?? "?")"
        case "nanMatch":
            return "match\(place): peer \(peer ?? "?") \(peerFunction ?? "function") instance "
                + "\(peerInstance.map(String.init) ?? "?") for local instance \(localInstance.map(String.init) ?? "?")"
        case "functionTerminated":
            return
                "NAN function \(localInstance.map(String.init) ?? "?") (cookie \(cookie ?? "?")) ended: \(reason ?? "?")"
        case "scheduleUpdateDone":
            return "schedule update\(place) \(success == true ? "succeeded" : "failed")"
        case "unalignedScheduleUpdated":
            let size = blob.map { "\($0.count / 2) bytes" } ?? "? bytes"
            return "unaligned schedule updated\(place): \(size)\(blob.map { $0.isEmpty ? "" : " \($0)" } ?? "")"
        case "channelsEvacuated":
            let list = (channels ?? []).map(\.text).joined(separator: ", ")
            return "NAN channels evacuated\(place): \(list.isEmpty ? "?" : list)"
        case "interfaceAdded":
            return "interface added\(place): \(interfaceType ?? "?")\(address.map { " \($0)" } ?? "")"
        case "interfaceRemoved":
            return "interface removed\(place)"
        case "adapterRemoved":
            return "adapter removed\(place)"
        case "eventsLost":
            return "events lost: \(dropped.map { "\($0) dropped" } ?? "the kernel's buffer overflowed")"
        case "malformedEvent":
            return "undecodable event (nl80211 command \(command.map(String.init) ?? "?")): \(detail ?? "")"
        case "otherEvent":
            return "nl80211 event, command \(command.map(String.init) ?? "?")\(place)"
        case "stopped":
            return "NAN stopped\(place)\(detail.map { "; \($0)" } ?? "")"
        default:
            return ([event + place] + [detail].compactMap { $0 }).joined(separator: ": ")
        }
    }

    /// The text line with the elapsed time (`+1.32s`) or wall-clock time in front, when set.
    var line: String {
        if let elapsedSeconds {
            let hundredths = Int((elapsedSeconds * 100).rounded())
            let fraction = hundredths % 100
            return "+\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)s \(text)"
        }
        if let time { return "\(time) \(text)" }
        return text
    }
}
