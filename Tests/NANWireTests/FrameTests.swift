import Testing
@testable import NANWire

@Suite struct ServiceDiscoveryFrameTests {
    static let header = hex("d0 00 00 00 | ff ff ff ff ff ff | 02 00 00 00 01 00 | 50 6f 9a 01 12 34 | 10 00")
    static let body =
        hex("04 09 50 6f 9a 13") + ServiceDescriptorTests.publishBytes + ServiceDescriptorExtensionTests.bytes

    @Test func decodesAPublishSDFBody() throws {
        let sdf = try ServiceDiscoveryFrame(actionBody: Self.body)
        #expect(!sdf.isProtected)
        #expect(
            sdf.attributes == [
                .serviceDescriptor(ServiceDescriptorTests.publish),
                .serviceDescriptorExtension(ServiceDescriptorExtensionTests.value),
            ])
        let messages = try sdf.messages()
        #expect(messages.count == 1)
        #expect(messages[0].descriptorExtension == ServiceDescriptorExtensionTests.value)
        #expect(messages[0].serviceSpecificInfo.map(Array.init) == [1, 2])
        #expect(try sdf.encoded() == Self.body)
    }

    @Test func decodesTheWholeManagementFrame() throws {
        let frame = try NANManagementFrame(bytes: Self.header + Self.body)
        #expect(frame.header.destination == .broadcast)
        #expect(frame.header.source == mac("02:00:00:00:01:00"))
        #expect(frame.header.bssid == mac("50:6f:9a:01:12:34"))
        #expect(frame.header.sequenceControl == 0x0010)
        guard case .serviceDiscovery(let sdf) = frame.body else {
            Issue.record("expected an SDF")
            return
        }
        #expect(sdf.serviceDescriptors == [ServiceDescriptorTests.publish])
        #expect(try frame.encoded() == Self.header + Self.body)
    }

    @Test func protectedSDFUsesCategoryNine() throws {
        let sdf = ServiceDiscoveryFrame(
            isProtected: true, attributes: [.serviceDescriptor(ServiceDescriptorTests.publish)])
        let bytes = try sdf.encoded()
        #expect(Array(bytes.prefix(6)) == hex("09 09 50 6f 9a 13"))
        #expect(try ServiceDiscoveryFrame(actionBody: bytes) == sdf)
    }

    @Test func errorOffsetsInAWholeFrameCountFromFrameControl() {
        var bytes = Self.header + Self.body
        bytes.removeLast()
        // 24 header + 6 action header + 21 SDA: the SDEA length field.
        expectError(.overlong, at: 24 + 6 + 21 + 1) {
            _ = try NANManagementFrame(bytes: bytes)
        }
    }

    @Test func rejectsOtherActionFrames() {
        #expect(
            throws: NANWireError(.notThisFrame, at: 0, "action category 127, expected 4 (public) or 9 (protected dual)")
        ) {
            _ = try ServiceDiscoveryFrame(actionBody: hex("7f 09 50 6f 9a 13"))
        }
        #expect(throws: NANWireError.self) { _ = try ServiceDiscoveryFrame(actionBody: hex("04 0a 50 6f 9a 13")) }
        #expect(throws: NANWireError.self) { _ = try ServiceDiscoveryFrame(actionBody: hex("04 09 00 10 18 13")) }
        #expect(throws: NANWireError.self) { _ = try ServiceDiscoveryFrame(actionBody: hex("04 09 50 6f 9a 09")) }
        #expect(throws: NANWireError.self) {
            _ = try NANManagementFrame(bytes: hex("80 00") + [UInt8](repeating: 0, count: 22) + Self.body)
        }
        #expect(throws: NANWireError.self) {
            _ = try NANManagementFrame(bytes: hex("d0 40") + [UInt8](repeating: 0, count: 22) + Self.body)
        }
    }

    @Test func sdfAndNAFEachRejectTheOthersOUITypeAtItsOffset() {
        #expect(throws: NANWireError(.notThisFrame, at: 5, "OUI type 24, expected 0x13 (SDF)")) {
            _ = try ServiceDiscoveryFrame(actionBody: hex("04 09 50 6f 9a 18 00"))
        }
        #expect(throws: NANWireError(.notThisFrame, at: 5, "OUI type 19, expected 0x18 (NAN action)")) {
            _ = try NANActionFrame(actionBody: hex("04 09 50 6f 9a 13"))
        }
    }

    @Test func sdfWithoutDescriptorHasNoMessages() throws {
        let sdf = try ServiceDiscoveryFrame(actionBody: hex("04 09 50 6f 9a 13"))
        #expect(sdf.attributes.isEmpty)
        #expect(throws: NANWireError.self) { _ = try sdf.messages() }
    }

    @Test func duplicateExtensionForOneInstanceIsRejected() throws {
        let sdf = try ServiceDiscoveryFrame(actionBody: Self.body + ServiceDescriptorExtensionTests.bytes)
        expectError(.duplicate) {
            _ = try sdf.messages()
        }
    }

    @Test func nanFrameChoosesByOUIType() throws {
        if case .serviceDiscovery = try NANFrame(actionBody: Self.body) {} else { Issue.record("expected SDF") }
        if case .action(let naf) = try NANFrame(actionBody: hex("04 09 50 6f 9a 18 05")) {
            #expect(naf.subtype == .dataPathRequest)
        } else {
            Issue.record("expected NAF")
        }
        #expect(throws: NANWireError.self) { _ = try NANFrame(actionBody: hex("04 09 50 6f 9a 1a")) }
    }
}

@Suite struct ZeroCopyTests {
    /// A copied field would be a new array indexed from 0; a view keeps the frame's indices.
    @Test func decodedByteFieldsAreViewsIntoTheFrame() throws {
        let frame = ServiceDiscoveryFrameTests.header + ServiceDiscoveryFrameTests.body
        let decoded = try NANManagementFrame(bytes: frame)
        guard case .serviceDiscovery(let sdf) = decoded.body, let message = try sdf.messages().first,
            let info = message.descriptor.serviceInfo, let ssi = message.descriptorExtension?.serviceInfo?.info,
            let filter = message.descriptor.matchingFilter
        else {
            Issue.record("expected a publish with service info")
            return
        }
        // 24 header + 6 action header + 3 SDA header + 9 fixed + 6 matching filter + 1 length.
        #expect(info.startIndex == 24 + 6 + 3 + 9 + 6 + 1)
        #expect(Array(frame[info.startIndex..<info.endIndex]) == Array(info))
        #expect(filter.bytes.startIndex == 24 + 6 + 3 + 9 + 1)
        #expect(ssi.startIndex == frame.count - 2)
    }
}

@Suite struct FrameDescriptionTests {
    @Test func summariesNameTheKeyFields() throws {
        let frame = try NANManagementFrame(bytes: ServiceDiscoveryFrameTests.header + ServiceDiscoveryFrameTests.body)
        #expect(
            frame.description
                == "02:00:00:00:01:00 → ff:ff:ff:ff:ff:ff (50:6f:9a:01:12:34): SDF [SDA publish c57ed9d5d167 id 1 → 0 filter [616263, *] info 2 bytes, SDEA id 1 control 0x4 generic info 2 bytes]"
        )
        let naf = NANActionFrame(
            subtype: .dataPathRequest,
            attributes: [.ndp(NDPAttribute(dialogToken: 1, type: .request, initiatorNDI: ndi1, ndpID: 3))])
        #expect(naf.description == "NAF data path request [NDP type 0 status 0 ndp 3 initiator 02:00:00:00:01:01]")
    }
}
