public import NANWire
// Offloaded discovery, stations, keys and schedules: the NAN data-path plumbing. mac80211_hwsim
// cannot run these (it has a user-space discovery engine and rejects offload), so the builders
// and parsers behind them are tested on bytes.

extension NL80211Session {
    /// Adds an offloaded NAN function (only for drivers without ``NANCapabilities/userSpaceDiscoveryEngine``).
    /// Match and termination events may arrive before this returns.
    ///
    /// - Returns: the function's cookie and instance id.
    public func addNANFunction(_ function: NANFunction, on wdev: WirelessDeviceID) async throws -> NANFunctionHandle {
        let reply = try await send(try .addNANFunction(wdev, function))
        guard let message = reply.messages.first else {
            throw NetlinkError(
                code: .malformedMessage, call: "NL80211_CMD_ADD_NAN_FUNCTION", detail: "no reply message")
        }
        return try NANFunctionHandle(decoding: message.attributes)
    }

    /// Removes an offloaded NAN function; a `nanFunctionTerminated` event follows.
    public func removeNANFunction(_ cookie: NANFunctionCookie, on wdev: WirelessDeviceID) async throws {
        _ = try await send(try .deleteNANFunction(wdev, cookie))
    }

    /// Adds a peer station (NMI station on the NAN interface, or NDI station on a NAN data interface).
    public func addStation(_ parameters: NANStationParameters) async throws {
        _ = try await send(try .newStation(parameters))
    }

    /// Changes a NAN station: its authorized/MFP flags, and for an NMI station the peer's HT/VHT capabilities
    /// (which its NDI stations need: see ``NANStationParameters``).
    public func updateStation(_ update: NANStationUpdate) async throws {
        _ = try await send(try .updateStation(update))
    }

    /// Changes a station's flags, e.g. `mask: .authorized, set: .authorized` once its keys are installed.
    public func setStationFlags(
        _ scope: StationScope, peer: MACAddress, mask: StationFlags, set: StationFlags
    ) async throws {
        _ = try await send(try .setStation(scope, peer: peer, mask: mask, set: set))
    }

    /// Removes a peer station.
    public func removeStation(_ scope: StationScope, peer: MACAddress) async throws {
        _ = try await send(try .deleteStation(scope, peer: peer))
    }

    /// Lists the stations of a netdev interface (e.g. a NAN data interface) with their statistics.
    public func stations(on interface: InterfaceIndex) async throws -> [StationInfo] {
        let reply = try await send(try .getStationDump(interface: interface, wdev: nil))
        return try reply.messages.map { (message) throws(NetlinkError) in try StationInfo(decoding: message.attributes)
        }
    }

    /// Lists the stations of an interface without a netdev (the NAN interface).
    public func stations(on wdev: WirelessDeviceID) async throws -> [StationInfo] {
        let reply = try await send(try .getStationDump(interface: nil, wdev: wdev))
        return try reply.messages.map { (message) throws(NetlinkError) in try StationInfo(decoding: message.attributes)
        }
    }

    /// Installs a key (`NEW_KEY`): on a NAN data interface, the pairwise key (TK) of a peer's NDI station,
    /// before the station is authorized. Needs ``NANSupport/secure`` (`SECURE_NAN`).
    public func addKey(_ key: NANKey) async throws {
        _ = try await send(try .newKey(key))
    }

    /// Sets our own NAN schedule (must be cleared before NAN stops).
    public func setLocalSchedule(_ schedule: NANLocalSchedule, on wdev: WirelessDeviceID) async throws {
        _ = try await send(try .setLocalSchedule(wdev, schedule))
    }

    /// Sets (replaces) a peer's NAN schedule; it is dropped with the peer's NMI station.
    public func setPeerSchedule(_ schedule: NANPeerSchedule, on wdev: WirelessDeviceID) async throws {
        _ = try await send(try .setPeerSchedule(wdev, schedule))
    }
}
