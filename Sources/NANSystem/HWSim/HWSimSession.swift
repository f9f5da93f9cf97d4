/// Entry point to mac80211_hwsim, the kernel's simulated radios (for tests and the VM bench).
public enum HWSim {
    /// Opens a session with the `MAC80211_HWSIM` family, runs `body`, and closes it on every path.
    ///
    /// Radios created with `destroyOnClose` disappear when the session closes.
    ///
    /// - Throws: ``NetlinkError`` `hwsimNotLoaded` when the module is not loaded, or what `body` throws.
    public static func withSession<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (HWSimSession) async throws -> Result
    ) async throws -> Result {
        let session = try HWSimSession()
        defer { session.close() }
        return try await body(session)
    }
}

/// A simulated radio's kernel id (`HWSIM_ATTR_RADIO_ID`).
public struct HWSimRadioID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The id.
    public let rawValue: UInt32
    /// Wraps an id.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The number.
    public var description: String { String(rawValue) }
}

/// How to create a simulated radio.
public struct HWSimRadioConfiguration: Sendable, Hashable {
    /// The radio's (wiphy) name; nil lets the kernel name it `phyN`.
    public var name: String?
    /// How many channels the radio can use at once (3 is what NAN with data paths needs).
    public var channels: UInt32
    /// Give the radio NAN and NAN data interface support (`HWSIM_ATTR_SUPPORT_NAN_DEVICE`).
    public var supportsNAN: Bool
    /// Destroy the radio when the session that created it closes.
    public var destroyOnClose: Bool
    /// Create the radio without its default station interface.
    public var withoutDefaultInterface: Bool

    /// Creates a configuration; the defaults make a NAN radio with 3 channels that outlives the session.
    public init(
        name: String? = nil, channels: UInt32 = 3, supportsNAN: Bool = true, destroyOnClose: Bool = false,
        withoutDefaultInterface: Bool = false
    ) {
        self.name = name
        self.channels = channels
        self.supportsNAN = supportsNAN
        self.destroyOnClose = destroyOnClose
        self.withoutDefaultInterface = withoutDefaultInterface
    }
}

/// A simulated radio as hwsim lists it.
public struct HWSimRadio: Sendable, Hashable {
    /// The radio's hwsim id.
    public var id: HWSimRadioID
    /// The radio's wiphy name, e.g. `phy0`.
    public var name: String?
    /// The number of channels.
    public var channels: UInt32?
    /// Whether the radio was created with NAN support.
    public var supportsNAN: Bool

    /// Creates a value (mostly for tests).
    public init(id: HWSimRadioID, name: String?, channels: UInt32?, supportsNAN: Bool) {
        self.id = id
        self.name = name
        self.channels = channels
        self.supportsNAN = supportsNAN
    }
}

/// A connection to the `MAC80211_HWSIM` generic netlink family.
public final class HWSimSession: Sendable {
    private let connection: NetlinkConnection
    private let family: GenericNetlinkFamily

    /// Opens a session. Prefer ``HWSim/withSession(isolation:_:)``; otherwise call ``close()``.
    ///
    /// - Throws: ``NetlinkError`` `hwsimNotLoaded` when the family is missing.
    public init() throws {
        let socket = try NetlinkSocket()
        do {
            family = try socket.resolveFamily("MAC80211_HWSIM", missingCode: .hwsimNotLoaded)
        } catch {
            socket.free()
            throw error
        }
        // hwsim sends nothing we listen to unprompted; events are ignored.
        connection = NetlinkConnection(socket: socket, label: "hwsim") { _ in }
    }

    deinit {
        connection.close()
    }

    /// Closes the socket; radios created with `destroyOnClose` are destroyed. Idempotent.
    public func close() {
        connection.close()
    }

    /// Whether this kernel's hwsim can create NAN radios (it knows `HWSIM_ATTR_SUPPORT_NAN_DEVICE`).
    public var supportsNAN: Bool {
        family.maxAttribute >= UInt32(HWSimAttribute.supportNanDevice.rawValue)
    }

    private func send(_ request: HWSimRequest) async throws -> NetlinkReply {
        try await connection.request(
            family: family.id, command: request.command.rawValue, version: 1,
            attributes: request.attributes, dump: request.dump, call: request.command.cName)
    }

    /// Creates a simulated radio.
    ///
    /// - Returns: the new radio's id.
    /// - Throws: ``NetlinkError`` `hwsimWithoutNAN` when NAN is asked for and this kernel's hwsim lacks it.
    public func addRadio(
        _ configuration: HWSimRadioConfiguration = HWSimRadioConfiguration()
    ) async throws -> HWSimRadioID {
        if configuration.supportsNAN && !supportsNAN {
            throw NetlinkError(
                code: .hwsimWithoutNAN, call: "HWSIM_CMD_NEW_RADIO",
                detail: "the family's highest attribute is \(family.maxAttribute), NAN needs 30")
        }
        let reply = try await send(try .newRadio(configuration))
        // hwsim answers with the new radio's id as the ack's (positive) value.
        return HWSimRadioID(rawValue: UInt32(clamping: reply.ackValue))
    }

    /// Lists the simulated radios.
    public func radios() async throws -> [HWSimRadio] {
        let reply = try await send(try .getRadioDump())
        return try reply.messages.map { (message) throws(NetlinkError) in try HWSimRadio(decoding: message.attributes) }
    }

    /// Removes a simulated radio by id.
    public func removeRadio(_ id: HWSimRadioID) async throws {
        _ = try await send(try .deleteRadio(id: id))
    }

    /// Removes a simulated radio by name.
    public func removeRadio(named name: String) async throws {
        _ = try await send(try .deleteRadio(name: name))
    }
}

extension HWSimRadio {
    /// Decodes one `HWSIM_CMD_GET_RADIO` reply.
    init(decoding attributes: NetlinkAttributes) throws(NetlinkError) {
        self.init(
            id: HWSimRadioID(rawValue: try attributes.required(HWSimAttribute.radioId, as: UInt32.self)),
            name: attributes.string(HWSimAttribute.radioName),
            channels: try attributes.integer(HWSimAttribute.channels, as: UInt32.self),
            supportsNAN: attributes.has(HWSimAttribute.supportNanDevice))
    }
}

/// One hwsim request as bytes (built without a socket, so tests can check them).
struct HWSimRequest: Sendable, Hashable {
    var command: HWSimCommand
    var attributes: [UInt8]
    var dump = false

    /// `HWSIM_CMD_NEW_RADIO`.
    static func newRadio(_ c: HWSimRadioConfiguration) throws(NetlinkError) -> HWSimRequest {
        var w = NetlinkAttributeWriter()
        try w.put(HWSimAttribute.channels, c.channels)
        if let name = c.name { try w.put(HWSimAttribute.radioName, bytes: Array(name.utf8)) }
        if c.destroyOnClose { try w.putFlag(HWSimAttribute.destroyRadioOnClose) }
        if c.withoutDefaultInterface { try w.putFlag(HWSimAttribute.noVif) }
        if c.supportsNAN { try w.putFlag(HWSimAttribute.supportNanDevice) }
        return HWSimRequest(command: .newRadio, attributes: w.bytes)
    }

    /// `HWSIM_CMD_GET_RADIO` dump.
    static func getRadioDump() throws(NetlinkError) -> HWSimRequest {
        HWSimRequest(command: .getRadio, attributes: [], dump: true)
    }

    /// `HWSIM_CMD_DEL_RADIO` by id.
    static func deleteRadio(id: HWSimRadioID) throws(NetlinkError) -> HWSimRequest {
        var w = NetlinkAttributeWriter()
        try w.put(HWSimAttribute.radioId, id.rawValue)
        return HWSimRequest(command: .delRadio, attributes: w.bytes)
    }

    /// `HWSIM_CMD_DEL_RADIO` by name.
    static func deleteRadio(name: String) throws(NetlinkError) -> HWSimRequest {
        var w = NetlinkAttributeWriter()
        try w.put(HWSimAttribute.radioName, bytes: Array(name.utf8))
        return HWSimRequest(command: .delRadio, attributes: w.bytes)
    }
}
