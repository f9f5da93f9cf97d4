/// One discovery message from an SDF: a Service Descriptor attribute with the Service Descriptor
/// Extension attribute of the same instance, if the frame carries one. The second stage of parsing.
public struct ServiceDiscoveryMessage: Hashable, Sendable {
    /// The service descriptor.
    public var descriptor: ServiceDescriptorAttribute
    /// Its extension (same instance ID), if any.
    public var descriptorExtension: ServiceDescriptorExtensionAttribute?

    /// Creates a message.
    public init(descriptor: ServiceDescriptorAttribute, descriptorExtension: ServiceDescriptorExtensionAttribute? = nil)
    {
        self.descriptor = descriptor
        self.descriptorExtension = descriptorExtension
    }

    /// The service-specific info: from the SDEA if it has some, else from the SDA.
    public var serviceSpecificInfo: ArraySlice<UInt8>? {
        descriptorExtension?.serviceInfo?.info ?? descriptor.serviceInfo
    }
}

extension ServiceDiscoveryFrame {
    /// The Service Descriptor attributes in frame order.
    public var serviceDescriptors: [ServiceDescriptorAttribute] {
        attributes.compactMap { if case .serviceDescriptor(let a) = $0 { return a } else { return nil } }
    }

    /// Pairs each Service Descriptor attribute with its extension.
    ///
    /// Throws `.missing` when the frame has no Service Descriptor attribute, `.duplicate` when two
    /// extensions name the same instance. Extensions without a descriptor are ignored, as are
    /// attributes of other kinds (look them up in ``attributes``).
    public func messages() throws(NANWireError) -> [ServiceDiscoveryMessage] {
        var extensions: [InstanceID: ServiceDescriptorExtensionAttribute] = [:]
        var descriptors: [ServiceDescriptorAttribute] = []
        for attribute in attributes {
            switch attribute {
            case .serviceDescriptor(let sda):
                descriptors.append(sda)
            case .serviceDescriptorExtension(let sdea):
                if extensions.updateValue(sdea, forKey: sdea.instanceID) != nil {
                    throw NANWireError(
                        .duplicate, at: 0,
                        "SDF: two Service Descriptor Extension attributes for instance \(sdea.instanceID)")
                }
            default:
                break
            }
        }
        guard !descriptors.isEmpty else {
            throw NANWireError(.missing, at: 0, "SDF: no Service Descriptor attribute")
        }
        return descriptors.map {
            ServiceDiscoveryMessage(descriptor: $0, descriptorExtension: extensions[$0.instanceID])
        }
    }

    /// An SDF carrying `messages` (each descriptor followed by its extension) and then `extra` attributes.
    public init(isProtected: Bool = false, messages: [ServiceDiscoveryMessage], extra: [NANAttribute] = []) {
        var list: [NANAttribute] = []
        for message in messages {
            list.append(.serviceDescriptor(message.descriptor))
            if let sdea = message.descriptorExtension { list.append(.serviceDescriptorExtension(sdea)) }
        }
        self.init(isProtected: isProtected, attributes: list + extra)
    }
}
