import Testing
@testable import NANWire

/// Known bytes written by hand from the Service Descriptor attribute layout (see docs/wire-format.md).
@Suite struct ServiceDescriptorTests {
    // Publish, instance 1, matching filter ["abc", *], service info de ad.
    static let publishBytes = hex(
        """
        03 12 00 | c5 7e d9 d5 d1 67 | 01 | 00 | 14 | 05 03 61 62 63 00 | 02 de ad
        """)
    static let publish = ServiceDescriptorAttribute(
        serviceID: ServiceID(hex: "c57ed9d5d167")!, instanceID: 1, requestorInstanceID: .none, controlType: .publish,
        matchingFilter: try! MatchingFilter(elements: [Array("abc".utf8), []]), serviceInfo: [0xde, 0xad][...])

    @Test func decodesAPublishWithMatchingFilterAndServiceInfo() throws {
        let value = try ServiceDescriptorAttribute(decoding: Self.publishBytes)
        #expect(value == Self.publish)
        #expect(value.matchingFilter?.elements.map(Array.init) == [Array("abc".utf8), []])
    }

    @Test func encodesAPublishToTheSameBytes() throws {
        #expect(try Self.publish.encoded() == Self.publishBytes)
    }

    @Test func decodesEveryOptionalFieldInLayoutOrder() throws {
        // Subscribe 2 -> 7, control: subscribe|MF|SRF|SI|range|binding|random = 0xfd.
        let bytes = hex(
            """
            03 19 00 | 01 02 03 04 05 06 | 02 | 07 | fd | 34 12 | 01 00 | 07 02 02 00 00 00 01 00 | 03 61 62 63
            """)
        let value = try ServiceDescriptorAttribute(decoding: bytes)
        #expect(value.controlType == .subscribe)
        #expect(value.instanceID == 2 && value.requestorInstanceID == 7)
        #expect(value.bindingBitmap == 0x1234)
        #expect(value.matchingFilter?.elements.count == 1)
        #expect(value.matchingFilter?.elements.first?.isEmpty == true)
        #expect(
            value.serviceResponseFilter
                == ServiceResponseFilter(include: true, addressSet: .addresses([mac("02:00:00:00:01:00")])))
        #expect(value.discoveryRangeLimited && value.serviceIDRandomized)
        #expect(value.serviceInfo.map(Array.init) == Array("abc".utf8))
        #expect(try value.encoded() == bytes)
    }

    @Test func followUpWithoutOptionalFieldsIsNineBytes() throws {
        let value = ServiceDescriptorAttribute(
            serviceID: ServiceID(1, 2, 3, 4, 5, 6), instanceID: 3, requestorInstanceID: 9, controlType: .followUp)
        #expect(try value.encoded() == hex("03 09 00 01 02 03 04 05 06 03 09 02"))
    }

    @Test func reservedControlTypeIsRejected() {
        #expect(
            throws: NANWireError(.outOfRange, at: 11, "Service Descriptor attribute: reserved service control type 3")
        ) {
            _ = try ServiceDescriptorAttribute(decoding: hex("03 09 00 01 02 03 04 05 06 03 09 03"))
        }
    }

    @Test func matchingFilterRunningPastTheAttributeIsTruncated() {
        do {
            _ = try ServiceDescriptorAttribute(decoding: hex("03 0b 00 01 02 03 04 05 06 01 00 04 05 01"))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .truncated)
            #expect(error.context.contains("matching filter"))
        }
    }

    @Test func matchingFilterElementRunningPastTheFilterIsOverlong() {
        expectError(
            ServiceDescriptorAttribute.self, hex("03 0c 00 01 02 03 04 05 06 01 00 04 02 05 61"), .overlong, at: 13)
    }

    @Test func serviceInfoLengthPastTheEndIsTruncated() {
        expectError(
            ServiceDescriptorAttribute.self, hex("03 0b 00 01 02 03 04 05 06 01 00 10 05 aa"), .truncated, at: 13)
    }

    @Test func bytesAfterTheLastFieldAreOverlong() {
        expectError(ServiceDescriptorAttribute.self, hex("03 0a 00 01 02 03 04 05 06 01 00 00 ff"), .overlong)
    }

    @Test func srfAddressListMustBeWholeAddresses() {
        expectError(
            ServiceDescriptorAttribute.self, hex("03 11 00 01 02 03 04 05 06 01 00 08 06 02 01 02 03 04 05 06"),
            .malformed)
    }
}

@Suite struct ServiceDescriptorExtensionTests {
    // Instance 1, data path required, range limit 100/200, service info: WFA, generic, 01 02.
    static let bytes = hex("0e 0f 00 | 01 | 04 01 | 64 00 c8 00 | 06 00 50 6f 9a 02 01 02")
    static let value = ServiceDescriptorExtensionAttribute(
        instanceID: 1, control: .dataPathRequired, rangeLimit: .init(ingress: 100, egress: 200),
        serviceInfo: .init(protocolType: .generic, info: [1, 2][...]))

    @Test func decodesRangeLimitAndServiceInfo() throws {
        #expect(try ServiceDescriptorExtensionAttribute(decoding: Self.bytes) == Self.value)
    }

    @Test func encodesToTheSameBytes() throws {
        #expect(try Self.value.encoded() == Self.bytes)
    }

    @Test func updateIndicatorFollowsRangeLimit() throws {
        let value = ServiceDescriptorExtensionAttribute(
            instanceID: 5, control: [.securityRequired, .gtkRequired], serviceUpdateIndicator: 7)
        let bytes = hex("0e 04 00 05 40 06 07")
        #expect(try value.encoded() == bytes)
        #expect(try ServiceDescriptorExtensionAttribute(decoding: bytes) == value)
    }

    @Test func serviceInfoShorterThanOUIAndTypeIsRejected() {
        expectError(ServiceDescriptorExtensionAttribute.self, hex("0e 06 00 01 00 00 01 00 50"), .outOfRange, at: 6)
    }

    @Test func missingRangeLimitIsTruncated() {
        expectError(ServiceDescriptorExtensionAttribute.self, hex("0e 05 00 01 00 01 64 00"), .truncated)
    }
}
