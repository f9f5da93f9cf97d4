import NANLogging
public import NANWire

extension NANEngine {
    /// Whether this radio can carry data paths (NAN data interfaces and a user-space discovery engine).
    public var supportsDataPath: Bool { dataPath != nil }

    /// Accepts data-path requests to our publish `publishID`: NCS-SK ones with `security`'s credential and
    /// suites, or open ones when `security` is nil. The stream reports each request, connection and
    /// termination (a request refused for security or resources comes as `.terminated`). It ends when
    /// ``stopAcceptingDataPaths(publishID:)`` is called or the engine stops.
    ///
    /// - Throws: `DataPathError.notSupported` without data-path support, or the kernel's error creating
    ///   the data interface or installing the schedule.
    /// `peers` limits who may connect (NMI addresses); nil accepts anyone. `idleTimeout` ends each accepted
    /// data path after that long with no packet either way (reason `idle`); nil: never.
    public func acceptDataPaths(
        publishID: InstanceID, serviceInfo: [UInt8] = [], from peers: Set<MACAddress>? = nil,
        security: NDPSecurityPolicy? = nil, idleTimeout: Duration? = nil
    ) async throws
        -> AsyncStream<DataPathEvent>
    {
        try await acceptDataPaths(
            publishID: publishID, serviceInfo: serviceInfo,
            admitting: peers.map(DataPathAdmission.only) ?? .anyone, security: security, idleTimeout: idleTimeout)
    }

    /// As ``acceptDataPaths(publishID:serviceInfo:from:security:idleTimeout:)``, with `admission` asked at
    /// each request whether its peer may connect (so a list that changes while the publish runs is read
    /// as it is then).
    public func acceptDataPaths(
        publishID: InstanceID, serviceInfo: [UInt8] = [], admitting admission: DataPathAdmission,
        security: NDPSecurityPolicy? = nil, idleTimeout: Duration? = nil
    ) async throws
        -> AsyncStream<DataPathEvent>
    {
        guard let dataPath else { throw DataPathError.notSupported }
        // The publish's SDFs say that security is required, and with which suites (SDEA and CSIA).
        await core.setDataPathCipherSuites(security?.suites.map(\.wireValue) ?? [], for: publishID)
        return try await dataPath.accept(
            publishID: publishID, serviceInfo: serviceInfo, admitting: admission, security: security,
            idleTimeout: idleTimeout)
    }

    /// Stops accepting requests to `publishID`; data paths already up stay up.
    public func stopAcceptingDataPaths(publishID: InstanceID) async {
        await core.setDataPathCipherSuites([], for: publishID)
        await dataPath?.stopAccepting(publishID: publishID)
    }

    /// Requests a data path to `peer`'s publish `publishID`: NCS-SK with `security` (its first suite), open
    /// without. The stream reports `.connected` or `.terminated`, then `.terminated` when it ends.
    /// `idleTimeout` ends it after that long with no packet either way (reason `idle`); nil: never.
    ///
    /// - Throws: ``NDPSecurityError`` when the credential cannot be used, `DataPathError.tooManyDataPaths`.
    public func requestDataPath(
        to peer: MACAddress, publishID: InstanceID, serviceInfo: [UInt8] = [],
        security: NDPSecurityPolicy? = nil, idleTimeout: Duration? = nil
    ) async throws
        -> (NDPIdentifier, AsyncStream<DataPathEvent>)
    {
        guard let dataPath else { throw DataPathError.notSupported }
        let announced = await core.announcedSchedule(of: peer)
        return try await dataPath.request(
            to: peer, publishID: publishID, serviceInfo: serviceInfo, security: security,
            idleTimeout: idleTimeout, peerAvailability: announced.availability, peerCommittedDW: announced.committedDW)
    }

    /// Ends a data path (a termination is sent to the peer).
    public func endDataPath(_ id: NDPIdentifier) async {
        await dataPath?.end(id)
    }

    /// Moves our data-path schedule off the channels on `frequencies` (MHz), as when the kernel reports a
    /// channel evacuation: the new schedule is installed, each peer with data paths up is sent a Schedule
    /// Update Notification, and data paths left with no slot in common end (`schedule-changed`).
    /// Returns the schedule in use afterwards; nil when no data path was ever set up on this engine.
    @discardableResult
    public func evacuate(frequencies: Set<Int>) async -> DataPathSchedule? {
        await dataPath?.evacuate(frequencies: frequencies)
    }

    /// Installs our device schedule once NAN is up (``DataPathEngine/installDeviceSchedule()``): peers may
    /// then reach us, and we them, in committed slots outside the DWs. A radio without data paths, or one
    /// whose kernel refuses every schedule, stays DW-only (logged).
    public func installDeviceSchedule() async {
        guard let dataPath else { return }
        do { try await dataPath.installDeviceSchedule() } catch {
            dataPath.logger.trace("dp no device schedule, frames to peers wait for DWs: \(error)")
        }
    }

    /// Our local schedule now (the device schedule, or the data path's after it changed it); nil when none
    /// is installed.
    func localSchedule() async -> DataPathSchedule? { await dataPath?.currentSchedule }

    /// The peers with a data path up: their NMI stations belong to the data path.
    func linkedPeers() async -> Set<MACAddress> { await dataPath?.linkedPeers ?? [] }

    /// What `peer`'s SDFs last announced: its NAN Availability attributes and its committed DW info (nil
    /// without a Device Capability).
    func announcedSchedule(
        of peer: MACAddress
    ) async -> (availability: [NANAvailabilityAttribute], committedDW: UInt16?) {
        await core.announcedSchedule(of: peer)
    }

    /// The data paths that are up.
    public func dataPaths() async -> [DataPathConnection] {
        await dataPath?.connectionReports ?? []
    }
}

extension DataPathError {
    /// The radio cannot carry data paths.
    public static let notSupported = DataPathError(.notSupported)
}
