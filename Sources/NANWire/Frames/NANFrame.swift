/// Action-frame header constants shared by SDFs and NAFs.
enum ActionHeader {
    /// Category: public action.
    static let publicAction: UInt8 = 0x04
    /// Category: protected dual of public action.
    static let protectedDualOfPublicAction: UInt8 = 0x09
    /// Public action field: vendor specific.
    static let vendorSpecific: UInt8 = 0x09
    /// OUI type of a Service Discovery Frame.
    static let sdfType: UInt8 = 0x13
    /// OUI type of a NAN Action Frame.
    static let nafType: UInt8 = 0x18

    /// Reads category, action and OUI; returns (protected, OUI type).
    static func read(_ reader: inout ByteReader) throws(NANWireError) -> (isProtected: Bool, ouiType: UInt8) {
        let category = try reader.readU8("action category")
        guard category == publicAction || category == protectedDualOfPublicAction else {
            throw NANWireError(
                .notThisFrame, at: reader.offset - 1,
                "action category \(category), expected 4 (public) or 9 (protected dual)")
        }
        let action = try reader.readU8("public action field")
        guard action == vendorSpecific else {
            throw NANWireError(
                .notThisFrame, at: reader.offset - 1, "public action \(action), expected 9 (vendor specific)")
        }
        let oui = try reader.readBE24("OUI")
        guard oui == OUI.wifiAlliance.rawValue else {
            throw NANWireError(.notThisFrame, at: reader.offset - 3, "OUI \(OUI(rawValue: oui)), expected 50-6f-9a")
        }
        return (category == protectedDualOfPublicAction, try reader.readU8("OUI type"))
    }

    /// Reads the header of a frame that must carry `ouiType` (called `name` in the error); returns whether
    /// it is protected. Another OUI type is `.notThisFrame` at the OUI type byte.
    static func read(_ reader: inout ByteReader, expecting ouiType: UInt8, _ name: String) throws(NANWireError) -> Bool
    {
        let start = reader.offset
        let header = try read(&reader)
        guard header.ouiType == ouiType else {
            throw NANWireError(
                .notThisFrame, at: start + 5,
                "OUI type \(header.ouiType), expected 0x\(String(ouiType, radix: 16)) (\(name))")
        }
        return header.isProtected
    }

    /// Writes category, action, OUI and OUI type.
    static func write(_ writer: inout ByteWriter, isProtected: Bool, ouiType: UInt8) {
        writer.writeU8(isProtected ? protectedDualOfPublicAction : publicAction)
        writer.writeU8(vendorSpecific)
        writer.writeBE24(OUI.wifiAlliance.rawValue)
        writer.writeU8(ouiType)
    }
}

/// An action-frame body (from the category byte on): an SDF, a NAF, or either.
public protocol NANActionBody: Hashable, Sendable {
    /// Decodes from `reader` (positioned at the category byte), consuming the rest.
    init(reading reader: inout ByteReader) throws(NANWireError)
    /// Appends the action body.
    func encode(into writer: inout ByteWriter) throws(NANWireError)
}

extension NANActionBody {
    /// Decodes an action body (starting at the category byte).
    public init(actionBody bytes: [UInt8]) throws(NANWireError) {
        var reader = ByteReader(bytes)
        try self.init(reading: &reader)
    }

    /// The action body as bytes.
    public func encoded() throws(NANWireError) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        try encode(into: &writer)
        return writer.bytes
    }
}

/// A Service Discovery Frame: `04 09 50 6f 9a 13` (or `09 …` when protected), then attributes.
public struct ServiceDiscoveryFrame: NANActionBody {
    /// Sent as a protected dual of public action (category 9).
    public var isProtected: Bool
    /// The attributes in frame order.
    public var attributes: [NANAttribute]

    /// Creates an SDF.
    public init(isProtected: Bool = false, attributes: [NANAttribute]) {
        self.isProtected = isProtected
        self.attributes = attributes
    }

    /// Decodes an SDF from `reader` (positioned at the category byte), consuming the rest.
    public init(reading reader: inout ByteReader) throws(NANWireError) {
        isProtected = try ActionHeader.read(&reader, expecting: ActionHeader.sdfType, "SDF")
        attributes = try NANAttribute.decodeList(ByteReader(reader.readRest(), origin: reader.origin))
    }

    /// Appends the action body.
    public func encode(into writer: inout ByteWriter) throws(NANWireError) {
        ActionHeader.write(&writer, isProtected: isProtected, ouiType: ActionHeader.sdfType)
        try NANAttribute.encodeList(attributes, into: &writer)
    }
}

/// A NAN Action Frame: `04 09 50 6f 9a 18 <subtype>` (or `09 …` when protected), then attributes.
public struct NANActionFrame: NANActionBody {
    /// Sent as a protected dual of public action (category 9).
    public var isProtected: Bool
    /// What this frame does.
    public var subtype: NANActionSubtype
    /// The attributes in frame order.
    public var attributes: [NANAttribute]

    /// Creates a NAF.
    public init(isProtected: Bool = false, subtype: NANActionSubtype, attributes: [NANAttribute]) {
        self.isProtected = isProtected
        self.subtype = subtype
        self.attributes = attributes
    }

    /// Decodes a NAF from `reader` (positioned at the category byte), consuming the rest.
    public init(reading reader: inout ByteReader) throws(NANWireError) {
        isProtected = try ActionHeader.read(&reader, expecting: ActionHeader.nafType, "NAN action")
        subtype = NANActionSubtype(rawValue: try reader.readU8("NAN action subtype"))
        attributes = try NANAttribute.decodeList(ByteReader(reader.readRest(), origin: reader.origin))
    }

    /// Appends the action body.
    public func encode(into writer: inout ByteWriter) throws(NANWireError) {
        ActionHeader.write(&writer, isProtected: isProtected, ouiType: ActionHeader.nafType)
        writer.writeU8(subtype.rawValue)
        try NANAttribute.encodeList(attributes, into: &writer)
    }
}

/// Either NAN frame kind, for code that receives both on one socket.
public enum NANFrame: NANActionBody {
    /// A Service Discovery Frame.
    case serviceDiscovery(ServiceDiscoveryFrame)
    /// A NAN Action Frame.
    case action(NANActionFrame)

    /// Decodes from `reader` (positioned at the category byte), consuming the rest.
    public init(reading reader: inout ByteReader) throws(NANWireError) {
        var peek = reader
        let header = try ActionHeader.read(&peek)
        switch header.ouiType {
        case ActionHeader.sdfType: self = .serviceDiscovery(try ServiceDiscoveryFrame(reading: &reader))
        case ActionHeader.nafType: self = .action(try NANActionFrame(reading: &reader))
        default:
            throw NANWireError(
                .notThisFrame, at: peek.offset - 1, "OUI type \(header.ouiType), expected 0x13 (SDF) or 0x18 (NAF)")
        }
    }

    /// Appends the action body.
    public func encode(into writer: inout ByteWriter) throws(NANWireError) {
        switch self {
        case .serviceDiscovery(let f): try f.encode(into: &writer)
        case .action(let f): try f.encode(into: &writer)
        }
    }

    /// The attributes of either kind.
    public var attributes: [NANAttribute] {
        switch self {
        case .serviceDiscovery(let f): return f.attributes
        case .action(let f): return f.attributes
        }
    }
}
