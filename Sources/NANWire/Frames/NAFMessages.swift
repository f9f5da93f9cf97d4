/// The NDP or NDP Extension attribute that drives a data-path NAF.
public enum NDPDescriptor: Hashable, Sendable {
    /// An NDP attribute.
    case ndp(NDPAttribute)
    /// An NDP Extension attribute.
    case ndpExtension(NDPExtensionAttribute)

    /// The fields both attributes carry.
    private var fixedPart: NDPFixedPart {
        switch self {
        case .ndp(let a): return a.fixedPart
        case .ndpExtension(let a): return a.fixedPart
        }
    }

    /// Request, response, confirm, security install or terminate.
    public var type: NDPMessageType { fixedPart.type }
    /// Continued, accepted or rejected.
    public var status: NDPStatus { fixedPart.status }
    /// Reason code.
    public var reasonCode: NANReasonCode { fixedPart.reasonCode }
    /// Dialog token.
    public var dialogToken: UInt8 { fixedPart.dialogToken }
    /// NDP ID.
    public var ndpID: UInt8 { fixedPart.ndpID }
    /// Initiator NDI.
    public var initiatorNDI: MACAddress { fixedPart.initiatorNDI }
    /// Responder NDI, if present.
    public var responderNDI: MACAddress? { fixedPart.responderNDI }
    /// Publish ID, if present.
    public var publishID: InstanceID? { fixedPart.publishID }

    var attribute: NANAttribute {
        switch self {
        case .ndp(let a): return .ndp(a);
        case .ndpExtension(let a): return .ndpExtension(a)
        }
    }
}

/// Collects the attributes of a NAF by kind, refusing duplicates of single-instance attributes.
struct NAFAttributeSet {
    var ndp: NDPDescriptor?
    var deviceCapability: DeviceCapabilityAttribute?
    var availability: [NANAvailabilityAttribute] = []
    var ndl: NDLAttribute?
    var ndlQoS: NDLQoSAttribute?
    var ndc: NDCAttribute?
    var elementContainer: ElementContainerAttribute?
    var cipherSuiteInfo: CipherSuiteInfoAttribute?
    var securityContextInfo: SecurityContextInfoAttribute?
    var sharedKeyDescriptor: SharedKeyDescriptorAttribute?
    var other: [NANAttribute] = []

    init(_ frame: NANActionFrame) throws(NANWireError) {
        func once<T>(_ slot: inout T?, _ value: T, _ id: NANAttributeID) throws(NANWireError) {
            guard slot == nil else {
                throw NANWireError(.duplicate, at: 0, "\(frame.subtype) NAF: \(id) attribute appears twice")
            }
            slot = value
        }
        for attribute in frame.attributes {
            switch attribute {
            case .ndp(let a): try once(&ndp, .ndp(a), attribute.id)
            case .ndpExtension(let a): try once(&ndp, .ndpExtension(a), attribute.id)
            case .deviceCapability(let a): try once(&deviceCapability, a, attribute.id)
            case .availability(let a):
                if availability.contains(where: { $0.mapID == a.mapID }) {
                    throw NANWireError(
                        .duplicate, at: 0, "\(frame.subtype) NAF: two NAN Availability attributes for map \(a.mapID)")
                }
                availability.append(a)
            case .ndl(let a): try once(&ndl, a, attribute.id)
            case .ndlQoS(let a): try once(&ndlQoS, a, attribute.id)
            case .ndc(let a): try once(&ndc, a, attribute.id)
            case .elementContainer(let a): try once(&elementContainer, a, attribute.id)
            case .cipherSuiteInfo(let a): try once(&cipherSuiteInfo, a, attribute.id)
            case .securityContextInfo(let a): try once(&securityContextInfo, a, attribute.id)
            case .sharedKeyDescriptor(let a): try once(&sharedKeyDescriptor, a, attribute.id)
            default: other.append(attribute)
            }
        }
    }
}

/// A data-path NAF (request, response, confirm, key install, termination) with its attributes typed.
/// The second stage of parsing for subtypes 5…9.
public struct DataPathMessage: Hashable, Sendable {
    /// Which step.
    public var subtype: NANActionSubtype
    /// The NDP or NDPE attribute (required).
    public var ndp: NDPDescriptor
    /// Device Capability, if present.
    public var deviceCapability: DeviceCapabilityAttribute?
    /// NAN Availability attributes, one per map.
    public var availability: [NANAvailabilityAttribute]
    /// NDL, if present.
    public var ndl: NDLAttribute?
    /// NDL QoS, if present.
    public var ndlQoS: NDLQoSAttribute?
    /// NDC, if present.
    public var ndc: NDCAttribute?
    /// Element Container, if present.
    public var elementContainer: ElementContainerAttribute?
    /// Cipher Suite Info, if present.
    public var cipherSuiteInfo: CipherSuiteInfoAttribute?
    /// Security Context Info, if present.
    public var securityContextInfo: SecurityContextInfoAttribute?
    /// Shared-Key Descriptor, if present.
    public var sharedKeyDescriptor: SharedKeyDescriptorAttribute?
    /// Any other attributes, in frame order.
    public var other: [NANAttribute]

    /// The NDP type each data-path subtype must carry.
    static func expectedType(for subtype: NANActionSubtype) -> NDPMessageType? {
        switch subtype {
        case .dataPathRequest: return .request
        case .dataPathResponse: return .response
        case .dataPathConfirm: return .confirm
        case .dataPathKeyInstall: return .securityInstall
        case .dataPathTermination: return .terminate
        default: return nil
        }
    }

    /// Types a data-path NAF: `.notThisFrame` for other subtypes, `.missing` without NDP/NDPE,
    /// `.duplicate` for repeated single attributes, `.outOfRange` when the NDP type does not fit the subtype.
    public init(_ frame: NANActionFrame) throws(NANWireError) {
        guard let expected = Self.expectedType(for: frame.subtype) else {
            throw NANWireError(.notThisFrame, at: 6, "\(frame.subtype) is not a data-path NAF")
        }
        let set = try NAFAttributeSet(frame)
        guard let ndp = set.ndp else {
            throw NANWireError(.missing, at: 0, "\(frame.subtype) NAF: no NDP or NDP Extension attribute")
        }
        guard ndp.type == expected else {
            throw NANWireError(.outOfRange, at: 0, "\(frame.subtype) NAF carries an NDP of type \(ndp.type.rawValue)")
        }
        subtype = frame.subtype
        self.ndp = ndp
        deviceCapability = set.deviceCapability
        availability = set.availability
        ndl = set.ndl
        ndlQoS = set.ndlQoS
        ndc = set.ndc
        elementContainer = set.elementContainer
        cipherSuiteInfo = set.cipherSuiteInfo
        securityContextInfo = set.securityContextInfo
        sharedKeyDescriptor = set.sharedKeyDescriptor
        other = set.other
    }

    /// Creates a message.
    public init(
        subtype: NANActionSubtype, ndp: NDPDescriptor, deviceCapability: DeviceCapabilityAttribute? = nil,
        availability: [NANAvailabilityAttribute] = [], ndl: NDLAttribute? = nil, ndlQoS: NDLQoSAttribute? = nil,
        ndc: NDCAttribute? = nil, elementContainer: ElementContainerAttribute? = nil,
        cipherSuiteInfo: CipherSuiteInfoAttribute? = nil, securityContextInfo: SecurityContextInfoAttribute? = nil,
        sharedKeyDescriptor: SharedKeyDescriptorAttribute? = nil, other: [NANAttribute] = []
    ) {
        self.subtype = subtype
        self.ndp = ndp
        self.deviceCapability = deviceCapability
        self.availability = availability
        self.ndl = ndl
        self.ndlQoS = ndlQoS
        self.ndc = ndc
        self.elementContainer = elementContainer
        self.cipherSuiteInfo = cipherSuiteInfo
        self.securityContextInfo = securityContextInfo
        self.sharedKeyDescriptor = sharedKeyDescriptor
        self.other = other
    }

    /// The NAF carrying this message (attributes in a fixed order: device capability, NDP/NDPE,
    /// availability, NDC, NDL, NDL QoS, element container, CSIA, SCIA, shared key, others).
    public func frame(isProtected: Bool = false) -> NANActionFrame {
        var list: [NANAttribute] = []
        if let deviceCapability { list.append(.deviceCapability(deviceCapability)) }
        list.append(ndp.attribute)
        list += availability.map(NANAttribute.availability)
        if let ndc { list.append(.ndc(ndc)) }
        if let ndl { list.append(.ndl(ndl)) }
        if let ndlQoS { list.append(.ndlQoS(ndlQoS)) }
        if let elementContainer { list.append(.elementContainer(elementContainer)) }
        if let cipherSuiteInfo { list.append(.cipherSuiteInfo(cipherSuiteInfo)) }
        if let securityContextInfo { list.append(.securityContextInfo(securityContextInfo)) }
        if let sharedKeyDescriptor { list.append(.sharedKeyDescriptor(sharedKeyDescriptor)) }
        list += other
        return NANActionFrame(isProtected: isProtected, subtype: subtype, attributes: list)
    }
}

/// A schedule NAF (request, response, confirm, update notification) with its attributes typed.
/// The second stage of parsing for subtypes 10…13.
public struct ScheduleMessage: Hashable, Sendable {
    /// Which step.
    public var subtype: NANActionSubtype
    /// NDL: required in request, response and confirm; absent or present in an update notification.
    public var ndl: NDLAttribute?
    /// Device Capability, if present.
    public var deviceCapability: DeviceCapabilityAttribute?
    /// NAN Availability attributes, one per map.
    public var availability: [NANAvailabilityAttribute]
    /// NDL QoS, if present.
    public var ndlQoS: NDLQoSAttribute?
    /// NDC, if present.
    public var ndc: NDCAttribute?
    /// Element Container, if present.
    public var elementContainer: ElementContainerAttribute?
    /// Any other attributes, in frame order.
    public var other: [NANAttribute]

    /// Types a schedule NAF: `.notThisFrame` for other subtypes, `.missing` when request, response or
    /// confirm has no NDL, `.duplicate` for repeated single attributes.
    public init(_ frame: NANActionFrame) throws(NANWireError) {
        guard frame.subtype.isSchedule else {
            throw NANWireError(.notThisFrame, at: 6, "\(frame.subtype) is not a schedule NAF")
        }
        let set = try NAFAttributeSet(frame)
        if frame.subtype != .scheduleUpdateNotification && set.ndl == nil {
            throw NANWireError(.missing, at: 0, "\(frame.subtype) NAF: no NDL attribute")
        }
        subtype = frame.subtype
        ndl = set.ndl
        deviceCapability = set.deviceCapability
        availability = set.availability
        ndlQoS = set.ndlQoS
        ndc = set.ndc
        elementContainer = set.elementContainer
        var rest = set.other
        if let ndp = set.ndp { rest.insert(ndp.attribute, at: 0) }
        if let a = set.cipherSuiteInfo { rest.append(.cipherSuiteInfo(a)) }
        if let a = set.securityContextInfo { rest.append(.securityContextInfo(a)) }
        if let a = set.sharedKeyDescriptor { rest.append(.sharedKeyDescriptor(a)) }
        other = rest
    }

    /// Creates a message.
    public init(
        subtype: NANActionSubtype, ndl: NDLAttribute?, deviceCapability: DeviceCapabilityAttribute? = nil,
        availability: [NANAvailabilityAttribute] = [], ndlQoS: NDLQoSAttribute? = nil, ndc: NDCAttribute? = nil,
        elementContainer: ElementContainerAttribute? = nil, other: [NANAttribute] = []
    ) {
        self.subtype = subtype
        self.ndl = ndl
        self.deviceCapability = deviceCapability
        self.availability = availability
        self.ndlQoS = ndlQoS
        self.ndc = ndc
        self.elementContainer = elementContainer
        self.other = other
    }

    /// The NAF carrying this message.
    public func frame(isProtected: Bool = false) -> NANActionFrame {
        var list: [NANAttribute] = []
        if let deviceCapability { list.append(.deviceCapability(deviceCapability)) }
        list += availability.map(NANAttribute.availability)
        if let ndc { list.append(.ndc(ndc)) }
        if let ndl { list.append(.ndl(ndl)) }
        if let ndlQoS { list.append(.ndlQoS(ndlQoS)) }
        if let elementContainer { list.append(.elementContainer(elementContainer)) }
        list += other
        return NANActionFrame(isProtected: isProtected, subtype: subtype, attributes: list)
    }
}
