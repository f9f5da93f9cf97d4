/// The Service Descriptor attribute (SDA, 0x03): one publish, subscribe or follow-up message.
///
/// Body: Service ID (6), Instance ID (1), Requestor Instance ID (1), Service Control (1), then the
/// optional fields in this order, each present when its control bit is set: Binding Bitmap (2, bit 6),
/// Matching Filter (length + filter, bit 2), Service Response Filter (length + SRF, bit 3),
/// Service Info (length + bytes, bit 4). Bit 5 is "discovery range limited", bit 7 "service ID
/// randomized"; bits 0–1 the message type (3 is reserved and rejected).
public struct ServiceDescriptorAttribute: NANAttributeBody {
    /// The attribute ID, 0x03.
    public static var attributeID: NANAttributeID { .serviceDescriptor }

    /// The kind of discovery message.
    public enum ControlType: UInt8, Hashable, Sendable, CaseIterable {
        /// A publish message.
        case publish = 0
        /// A subscribe message.
        case subscribe = 1
        /// A follow-up message.
        case followUp = 2
    }

    /// The service this message is about.
    public var serviceID: ServiceID
    /// The sender's instance (publish ID, subscribe ID or the follow-up's own instance).
    public var instanceID: InstanceID
    /// The peer instance this answers, or ``InstanceID/none``.
    public var requestorInstanceID: InstanceID
    /// Publish, subscribe or follow-up.
    public var controlType: ControlType
    /// Control bit 5: only respond within the discovery range.
    public var discoveryRangeLimited: Bool
    /// Control bit 7: the service ID is randomized.
    public var serviceIDRandomized: Bool
    /// Which NAN Availability map IDs this service is bound to (bit n = map n), if present.
    public var bindingBitmap: UInt16?
    /// The matching filter carried by the message, if present.
    public var matchingFilter: MatchingFilter?
    /// The service response filter, if present.
    public var serviceResponseFilter: ServiceResponseFilter?
    /// Service-specific info, if present (a slice of the frame when decoded).
    public var serviceInfo: ArraySlice<UInt8>?

    /// Creates a Service Descriptor attribute.
    public init(
        serviceID: ServiceID, instanceID: InstanceID, requestorInstanceID: InstanceID = .none,
        controlType: ControlType, discoveryRangeLimited: Bool = false, serviceIDRandomized: Bool = false,
        bindingBitmap: UInt16? = nil, matchingFilter: MatchingFilter? = nil,
        serviceResponseFilter: ServiceResponseFilter? = nil, serviceInfo: ArraySlice<UInt8>? = nil
    ) {
        self.serviceID = serviceID
        self.instanceID = instanceID
        self.requestorInstanceID = requestorInstanceID
        self.controlType = controlType
        self.discoveryRangeLimited = discoveryRangeLimited
        self.serviceIDRandomized = serviceIDRandomized
        self.bindingBitmap = bindingBitmap
        self.matchingFilter = matchingFilter
        self.serviceResponseFilter = serviceResponseFilter
        self.serviceInfo = serviceInfo
    }

    /// Decodes the body.
    public init(decodingBody reader: inout ByteReader) throws(NANWireError) {
        serviceID = try reader.readServiceID("Service Descriptor attribute: service ID")
        instanceID = InstanceID(try reader.readU8("Service Descriptor attribute: instance ID"))
        requestorInstanceID = InstanceID(try reader.readU8("Service Descriptor attribute: requestor instance ID"))
        let controlOffset = reader.offset
        let control = try reader.readU8("Service Descriptor attribute: service control")
        guard let type = ControlType(rawValue: control & 0x03) else {
            throw NANWireError(
                .outOfRange, at: controlOffset, "Service Descriptor attribute: reserved service control type 3")
        }
        controlType = type
        discoveryRangeLimited = control & 0x20 != 0
        serviceIDRandomized = control & 0x80 != 0
        bindingBitmap = control & 0x40 != 0 ? try reader.readLE16("Service Descriptor attribute: binding bitmap") : nil
        matchingFilter =
            control & 0x04 != 0
            ? try MatchingFilter(
                validating: try reader.readLV8("Service Descriptor attribute: matching filter"), origin: reader.origin)
            : nil
        if control & 0x08 != 0 {
            var srf = ByteReader(
                try reader.readLV8("Service Descriptor attribute: service response filter"), origin: reader.origin)
            serviceResponseFilter = try ServiceResponseFilter(decoding: &srf)
        } else {
            serviceResponseFilter = nil
        }
        serviceInfo = control & 0x10 != 0 ? try reader.readLV8("Service Descriptor attribute: service info") : nil
    }

    /// Encodes the body.
    public func encodeBody(into writer: inout ByteWriter) throws(NANWireError) {
        writer.writeServiceID(serviceID)
        writer.writeU8(instanceID.rawValue)
        writer.writeU8(requestorInstanceID.rawValue)
        var control = controlType.rawValue
        if matchingFilter != nil { control |= 0x04 }
        if serviceResponseFilter != nil { control |= 0x08 }
        if serviceInfo != nil { control |= 0x10 }
        if discoveryRangeLimited { control |= 0x20 }
        if bindingBitmap != nil { control |= 0x40 }
        if serviceIDRandomized { control |= 0x80 }
        writer.writeU8(control)
        if let bindingBitmap { writer.writeLE16(bindingBitmap) }
        if let matchingFilter {
            try writer.writeLV8(matchingFilter.bytes, "Service Descriptor attribute: matching filter")
        }
        if let serviceResponseFilter {
            try writer.lengthPrefixedU8("Service Descriptor attribute: service response filter") {
                (w: inout ByteWriter) throws(NANWireError) in
                serviceResponseFilter.encode(into: &w)
            }
        }
        if let serviceInfo { try writer.writeLV8(serviceInfo, "Service Descriptor attribute: service info") }
    }

}
