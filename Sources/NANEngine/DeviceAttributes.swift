import NANWire

/// What our discovery frames say about this device rather than about a service: its Device Capability, its
/// NAN Availability and its Device Capability Extension, carried in every SDF (publish, subscribe and
/// follow-up) before the NIRA.
///
/// The Wi-Fi Aware specification has a device that offers data paths or pairing announce them, and deployed
/// stacks depend on it: wpa_supplicant 2.12 configures a peer's NMI station from the Device Capability it
/// heard in the peer's SDFs, and refuses to request a data path or finish a PASN exchange with a peer whose
/// SDFs carried none; it reads pairing support from the Device Capability Extension.
struct DeviceAttributes: Sendable, Equatable {
    /// Our Device Capability (map ID field 0: it applies to every map).
    var capability: DeviceCapabilityAttribute
    /// The channels we can put in a data-path schedule, announced as potential availability.
    var usableChannels: [DataPathChannel]
    /// Our committed data-path schedule once it is installed (nil before: the potential entry alone).
    var committed: DataPathSchedule? = nil
    /// Pairing setup and NPK/NIK caching are supported (Device Capability Extension bits 8 and 9).
    var pairing: Bool = false

    /// The attributes in the order deployed stacks send them: Device Capability, NAN Availability, Device
    /// Capability Extension.
    var attributes: [NANAttribute] {
        [
            .deviceCapability(capability), .availability(availability),
            .deviceCapabilityExtension(DeviceCapabilityExtensionAttribute(capabilityInfo: pairing ? 0x0300 : 0)),
        ]
    }

    /// The NAN Availability attribute: the committed entries of our schedule (its map and sequence ID, the
    /// same as our data-path NAFs announce, so a peer that heard this SDF takes the NAF's attribute as the
    /// same schedule), then one potential entry over every usable channel at all times. Before a schedule
    /// is installed the sequence ID is 0, which any schedule our NAFs announce later supersedes.
    var availability: NANAvailabilityAttribute {
        let potential = AvailabilityEntry(
            // Type potential (bit 1), RX NSS 1 (bits 8–11); no time bitmap: every slot.
            control: 0x0002 | 1 << 8, bandChannels: .channels(usableChannels.map(\.channelEntry)))
        guard let committed else {
            // Map ID, potential changed (bit 5).
            return NANAvailabilityAttribute(
                sequenceID: 0, control: UInt16(DataPathSchedule.mapID) | 1 << 5, entries: [potential])
        }
        var attribute = committed.availabilityAttribute
        attribute.control |= 1 << 5
        attribute.entries.append(potential)
        return attribute
    }
}
