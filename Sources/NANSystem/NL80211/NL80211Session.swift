public import NANWire

/// Entry point to nl80211, the kernel's Wi-Fi configuration interface.
public enum NL80211 {
    /// Opens a session, runs `body` with it, and closes it on every path (return, throw, cancellation).
    ///
    /// Closing the session destroys the interfaces it created with `ownedBySession: true`.
    ///
    /// - Parameters:
    ///   - eventBufferSize: how many events ``NL80211Session/events`` holds before dropping the oldest
    ///     (a drop is reported as ``NL80211Event/overrun(droppedEvents:)``).
    ///   - body: the work to do with the session.
    /// - Throws: ``NetlinkError`` `familyNotFound` when the kernel has no nl80211, or whatever `body` throws.
    public static func withSession<Result>(
        eventBufferSize: Int = 256,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (NL80211Session) async throws -> Result
    ) async throws -> Result {
        let session = try NL80211Session(eventBufferSize: eventBufferSize)
        defer { session.close() }
        return try await body(session)
    }
}

/// A connection to nl80211: requests, replies, and the events for the NAN interfaces it owns.
///
/// One socket carries everything: replies are matched to requests by sequence number; events
/// (unicast to this socket for interfaces it owns, multicast on the "config", "mlme" and "nan" groups) go to
/// ``events``. All methods may be called concurrently from any task.
public final class NL80211Session: Sendable {
    private let connection: NetlinkConnection
    private let family: GenericNetlinkFamily
    private let sink: NL80211EventSink
    /// Events in arrival order. Iterate it from one task; it finishes when the session closes.
    public let events: AsyncThrowingStream<NL80211Event, any Error>

    /// Opens a session. Prefer ``NL80211/withSession(eventBufferSize:isolation:_:)``; if you open one
    /// yourself, call ``close()``.
    ///
    /// - Throws: ``NetlinkError`` `familyNotFound` when the kernel has no nl80211.
    public init(eventBufferSize: Int = 256) throws {
        let socket = try NetlinkSocket()
        let family: GenericNetlinkFamily
        do {
            family = try socket.resolveFamily("nl80211")
            // Every group is resolved before the socket joins any (see resolveGroup): a "config" event that
            // arrived while "mlme" was resolved made a session fail to open with "family not found".
            let config = try socket.resolveGroup(family: "nl80211", group: "config")
            // Older kernels have no "nan" group; NAN events for interfaces we own come by unicast anyway.
            let nan = try? socket.resolveGroup(family: "nl80211", group: "nan")
            // Frame TX status is multicast on "mlme".
            let mlme = try socket.resolveGroup(family: "nl80211", group: "mlme")
            for group in [config, nan, mlme].compactMap({ $0 }) { try socket.joinGroup(group) }
        } catch {
            socket.free()
            throw error
        }
        self.family = family
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: NL80211Event.self, bufferingPolicy: .bufferingNewest(max(1, eventBufferSize)))
        self.events = stream
        let sink = NL80211EventSink(continuation)
        self.sink = sink
        let familyID = family.id
        connection = NetlinkConnection(socket: socket, label: "nl80211") { inbound in
            switch inbound {
            case .event(let message):
                guard message.family == familyID else { return }
                sink.deliver(NL80211Event.decode(message))
            case .overrun:
                sink.deliver(.overrun(droppedEvents: nil))
            case .malformed(let error):
                sink.deliver(.malformed(command: 0, error: error))
            case .failed(let error):
                sink.finish(throwing: error)
            case .closed:
                sink.finish()
            }
        }
    }

    deinit {
        // Backstop only: withSession and explicit close() are the intended paths.
        connection.close()
    }

    /// Hands every later event straight to `handler`, on the thread that reads the socket, instead of
    /// through ``events``, which finishes now (events it still holds are not handed over). `finished` is
    /// called once, when the session ends, with its failure if any (at once if it has already ended).
    ///
    /// For one consumer that fans events out itself (the NAN device runtime): it saves every event a hop
    /// through a task, which on a loaded or emulated machine can push a reply past the end of its 16 TU
    /// discovery window. `handler` must return quickly and never block or wait.
    public func redirectEvents(
        to handler: @escaping @Sendable (NL80211Event) -> Void,
        finished: @escaping @Sendable ((any Error)?) -> Void
    ) {
        sink.redirect(to: NL80211EventSink.Redirect(deliver: handler, finished: finished))
    }

    /// Closes the socket: pending requests fail with `closed`, ``events`` finishes, and interfaces
    /// created with `ownedBySession: true` are destroyed by the kernel. Idempotent.
    public func close() {
        connection.close()
    }

    nonisolated(nonsending) func send(_ request: NL80211Request) async throws -> NetlinkReply {
        try await connection.request(
            family: family.id, command: request.command.rawValue, version: 0,
            attributes: request.attributes, dump: request.dump, call: request.callName)
    }

    // MARK: Radios and interfaces

    /// Lists the radios with their interfaces and NAN support.
    public func adapters() async throws -> [Adapter] {
        let wiphys = try await send(try .getWiphyDump())
        let interfaces = try await send(try .getInterfaceDump())
        return try Adapter.build(wiphyMessages: wiphys.messages, interfaceMessages: interfaces.messages)
    }

    /// Lists every wireless interface.
    public func interfaces() async throws -> [WirelessInterface] {
        let reply = try await send(try .getInterfaceDump())
        return try reply.messages.map { (message) throws(NetlinkError) in
            try WirelessInterface(decoding: message.attributes)
        }
    }

    /// Creates an interface on a radio.
    ///
    /// - Parameters:
    ///   - wiphy: the radio.
    ///   - name: the interface name (required by the kernel even for the NAN interface, which has no netdev).
    ///   - type: the interface type, e.g. `.nan` or `.nanData`.
    ///   - address: the interface address; nil lets the kernel choose.
    ///   - ownedBySession: tie the interface to this session (`SOCKET_OWNER`): it is destroyed when the
    ///     session closes, and its NAN events and registered frames come only to this session.
    /// - Returns: the new interface as the kernel describes it.
    public func createInterface(
        on wiphy: WiphyIndex, name: String, type: InterfaceType, address: MACAddress? = nil,
        ownedBySession: Bool = true
    ) async throws -> WirelessInterface {
        let reply = try await send(
            try .newInterface(
                wiphy: wiphy, name: name, type: type, address: address,
                ownedBySession: ownedBySession))
        guard let message = reply.messages.first else {
            throw NetlinkError(code: .malformedMessage, call: "NL80211_CMD_NEW_INTERFACE", detail: "no reply message")
        }
        return try WirelessInterface(decoding: message.attributes)
    }

    /// Creates the NAN management interface (NMI) on a radio.
    ///
    /// - Parameters:
    ///   - wiphy: a radio whose ``Adapter/nan`` is supported.
    ///   - name: the interface name, e.g. `nan0`.
    ///   - address: the NMI address; nil lets the kernel choose.
    ///   - ownedBySession: see ``createInterface(on:name:type:address:ownedBySession:)``; keep it true
    ///     so NAN events reach this session.
    public func createNANInterface(
        on wiphy: WiphyIndex, name: String, address: MACAddress? = nil,
        ownedBySession: Bool = true
    ) async throws -> NANInterface {
        let interface = try await createInterface(
            on: wiphy, name: name, type: .nan, address: address,
            ownedBySession: ownedBySession)
        guard let address = interface.address else {
            throw NetlinkError(
                code: .malformedMessage, call: "NL80211_CMD_NEW_INTERFACE", detail: "reply without an address")
        }
        return NANInterface(
            wiphy: interface.wiphy, wdev: interface.wdev, name: interface.name ?? name, address: address)
    }

    /// Deletes an interface.
    public func deleteInterface(_ wdev: WirelessDeviceID) async throws {
        _ = try await send(try .deleteInterface(wdev))
    }

    // MARK: NAN cluster

    /// Starts NAN on a NAN interface; a ``NL80211Event/clusterJoined(wdev:clusterID:isNew:)`` event follows.
    ///
    /// - Throws: ``NetlinkError`` `alreadyRunning`, `notSupported` (bands the device lacks), `permissionDenied`, …
    public func startNAN(on wdev: WirelessDeviceID, configuration: NANConfiguration = NANConfiguration()) async throws {
        do {
            _ = try await send(try .startNAN(wdev, configuration))
        } catch let error as NetlinkError {
            throw Self.startNANRefusal(error)
        }
    }

    /// What a refusal of `START_NAN` means: `EEXIST` is NAN running on this interface already, and `EBUSY`
    /// is NAN running on another NAN interface of the same radio (another process owns the radio's NAN,
    /// as mac80211 allows one NAN interface started per radio): both are "NAN is already running".
    static func startNANRefusal(_ error: NetlinkError) -> NetlinkError {
        guard error.errno == .fileExists || error.errno == .busy, error.code == .kernel || error.code == .busy
        else { return error }
        return error.recoded(as: .alreadyRunning)
    }

    /// Changes the running NAN configuration (all settings are replaced; the cluster id is ignored).
    public func changeNANConfiguration(on wdev: WirelessDeviceID, _ configuration: NANConfiguration) async throws {
        _ = try await send(try .changeNANConfiguration(wdev, configuration))
    }

    /// Stops NAN on a NAN interface (its NAN data interfaces are closed too).
    public func stopNAN(on wdev: WirelessDeviceID) async throws {
        _ = try await send(try .stopNAN(wdev))
    }

    // MARK: Frames

    /// Asks for received management frames of a type whose body starts with `prefix`, as
    /// ``NL80211Event/frameReceived(wdev:frequency:signalDBM:bytes:)`` events. Lasts until the session closes.
    ///
    /// - Parameters:
    ///   - wdev: the interface, e.g. the NAN interface.
    ///   - type: the frame type, `.action` for NAN frames.
    ///   - prefix: the start of the frame body, e.g. ``NANFramePrefix/serviceDiscovery``.
    public func registerFrames(
        on wdev: WirelessDeviceID, type: FrameType = .action, matching prefix: [UInt8]
    ) async throws {
        _ = try await send(try .registerFrame(wdev, type: type, prefix: prefix))
    }

    /// Transmits a management frame.
    ///
    /// - Parameters:
    ///   - frame: the whole 802.11 frame, header included.
    ///   - wdev: the interface to send on.
    ///   - frequency: the channel, e.g. the one from the last `nextDiscoveryWindow`.
    ///   - options: acknowledgement and off-channel settings.
    /// - Returns: the cookie that the ``NL80211Event/frameTxStatus(cookie:acked:)`` event will carry.
    ///
    /// Runs on the caller's executor: the frame reaches the kernel before the first suspension, with no hop
    /// to another executor (a reply must leave within its 16 TU discovery window).
    public nonisolated(nonsending) func sendFrame(
        _ frame: [UInt8], on wdev: WirelessDeviceID, frequency: Frequency?,
        options: FrameSendOptions = FrameSendOptions()
    ) async throws -> FrameCookie {
        let reply = try await send(try .sendFrame(frame, wdev: wdev, frequency: frequency, options: options))
        let cookie = try reply.messages.first?.attributes.integer(NL80211Attribute.cookie, as: UInt64.self)
        return FrameCookie(rawValue: cookie ?? 0)
    }

    /// Hands a management frame to the kernel on the current channel and returns at once, without waiting for
    /// the kernel's answer (its cookie is dropped; the frame's TX status still comes as an event, as for
    /// ``sendFrame(_:on:frequency:options:)``). For answers sent from the thread that reads this session's
    /// events (``redirectEvents(to:finished:)``), which must not wait for that same thread.
    ///
    /// - Throws: ``NetlinkError`` when the request cannot be built or the socket does not take it.
    public func postFrame(_ frame: [UInt8], on wdev: WirelessDeviceID) throws(NetlinkError) {
        let request = try NL80211Request.sendFrame(frame, wdev: wdev, frequency: nil, options: FrameSendOptions())
        try connection.post(
            family: family.id, command: request.command.rawValue, version: 0, attributes: request.attributes,
            call: request.callName)
    }
}
