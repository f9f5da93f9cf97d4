import NANEngine
import NANSystem

extension WAError {
    /// Why USD could not start on an adapter, in words a user can act on: the radio blocked by rfkill, another
    /// program receiving NAN frames on the interface, the radio connected to an access point on another channel
    /// and refusing to leave it (`station`: the station interface's name and channel in MHz, when it has one),
    /// the radio busy (a scan), or the channel not allowed. Anything else is mapped as every kernel failure is.
    static func usdStart(
        _ error: NetlinkError, on adapter: String, station: (interface: String?, frequency: Int)? = nil
    ) -> WAError {
        let operation = "start USD on \(adapter)"
        let channel = "\(USDOptions.defaultFrequency) MHz"
        let said = error.kernelMessage.map { " (the kernel says: \($0))" } ?? ""
        let errno = error.errno
        let reason: (Code, String)?
        if errno == .radioBlocked {
            reason = (.noRadioResources, "the radio is blocked by rfkill; unblock it with `rfkill unblock wifi`")
        } else if error.call == "NL80211_CMD_REGISTER_FRAME", errno == .alreadyInProgress || errno == .busy {
            reason = (
                .alreadyRunning,
                "another program already receives NAN frames on this adapter's interface (wpa_supplicant with NAN "
                    + "USD?); stop it there first"
            )
        } else if error.call == "NL80211_CMD_REMAIN_ON_CHANNEL", errno == .busy, let station,
            station.frequency != USDOptions.defaultFrequency
        {
            reason = (
                .noRadioResources,
                "\(station.interface ?? "its station interface") is connected to an access point on "
                    + "\(station.frequency) MHz and the radio will not leave that channel for USD's \(channel); "
                    + "disconnect it, or connect to an access point on \(channel) (channel 6)"
            )
        } else if error.call == "NL80211_CMD_REMAIN_ON_CHANNEL", errno == .busy {
            reason = (
                .noRadioResources,
                "the radio is busy and cannot stay on \(channel) (a scan, or another program holding it on a "
                    + "channel); try again when the scan ends"
            )
        } else if error.call == "NL80211_CMD_REMAIN_ON_CHANNEL", errno == .invalidArgument {
            reason = (
                .wifiAwareUnsupported,
                "the radio may not use \(channel) here (the regulatory domain disables it, or the radio lacks it)"
            )
        } else {
            reason = nil
        }
        guard let (code, text) = reason else { return from(error, while: operation) }
        return WAError(
            code, message: "cannot \(operation): \(text)\(said)", errno: error.errno?.rawValue,
            kernelMessage: error.kernelMessage, underlying: error)
    }
}
