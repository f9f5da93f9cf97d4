import Foundation
import Testing
@testable import NANWire

/// Frames the discovery engine sent between two mac80211_hwsim radios, captured from nl80211 by the VM
/// scenario `frames-capture` (see Fixtures/captured/README.md): they must decode, carry what the
/// scenario asked for, and re-encode to the bytes that went over the air.
@Suite struct CapturedFrameTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/captured")

    /// `_frames._tcp`: the first 6 bytes of SHA-256 of the name (`printf '%s' _frames._tcp | openssl dgst -sha256`).
    static let serviceID = ServiceID(hex: "92fc3befbd7b")
    static let publisher = MACAddress(0x42, 0, 0, 0, 0, 0)
    static let subscriber = MACAddress(0x42, 0, 0, 0, 1, 0)

    /// The captured frames' file names (none if the folder is missing, which `everyKindWasCaptured` reports).
    static func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".hex") }
            .sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        hex(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
    }

    /// The frame's header and its one Service Descriptor attribute.
    static func descriptor(_ name: String) throws -> (ManagementHeader, ServiceDescriptorAttribute) {
        let frame = try NANManagementFrame(bytes: try bytes(name))
        guard case .serviceDiscovery(let sdf) = frame.body else {
            throw NANWireError(.notThisFrame, at: 0, "\(name) is not an SDF")
        }
        let descriptors = sdf.serviceDescriptors
        guard descriptors.count == 1, let sda = descriptors.first else {
            throw NANWireError(.missing, at: 0, "\(name) has \(descriptors.count) service descriptors")
        }
        return (frame.header, sda)
    }

    @Test func everyKindWasCaptured() throws {
        let names = Self.names()
        for kind in ["publish-", "subscribe-", "follow-up-received-by-publisher", "follow-up-received-by-subscriber"] {
            #expect(names.contains { $0.hasPrefix(kind) }, "no \(kind) frame in \(names)")
        }
    }

    @Test(arguments: CapturedFrameTests.names())
    func capturedFrameDecodesAndReencodesToTheSameBytes(name: String) throws {
        let bytes = try Self.bytes(name)
        let frame = try NANManagementFrame(bytes: bytes)
        #expect(try frame.encoded() == bytes)
        guard case .serviceDiscovery(let sdf) = frame.body else {
            Issue.record("\(name): \(frame.body)")
            return
        }
        #expect(!sdf.isProtected)
        let messages = try sdf.messages()
        #expect(messages.count == 1)
        #expect(messages.first?.descriptor.serviceID == Self.serviceID)
        #expect(frame.header.frameControl == ManagementHeader.actionFrameControl)
        #expect(frame.header.bssid.description.hasPrefix("50:6f:9a:01:"), "cluster ID")
    }

    @Test func unsolicitedPublishCarriesServiceInfoAndMatchingFilter() throws {
        let (header, sda) = try Self.descriptor("publish-received-by-subscriber-01.hex")
        #expect(header.source == Self.publisher)
        #expect(header.destination == .broadcast)
        #expect(sda.controlType == .publish)
        #expect(sda.instanceID == 1)
        #expect(sda.requestorInstanceID == .none)
        #expect(sda.serviceInfo.map { Array($0) } == Array("hello from A".utf8))
        #expect(sda.matchingFilter == (try MatchingFilter(elements: [Array("red".utf8), Array("large".utf8)])))
    }

    @Test func solicitedPublishAnswersTheSubscribeInstance() throws {
        let (header, sda) = try Self.descriptor("publish-received-by-subscriber-02.hex")
        #expect(header.destination == Self.subscriber)
        #expect(sda.controlType == .publish)
        #expect(sda.requestorInstanceID == 1)
    }

    @Test func activeSubscribeCarriesItsWildcardFilterAndNoInfo() throws {
        let (header, sda) = try Self.descriptor("subscribe-received-by-publisher-01.hex")
        #expect(header.source == Self.subscriber)
        #expect(header.destination == .broadcast)
        #expect(sda.controlType == .subscribe)
        #expect(sda.instanceID == 1)
        #expect(sda.serviceInfo == nil)
        #expect(sda.matchingFilter == (try MatchingFilter(elements: [Array("red".utf8), []])))
    }

    @Test(arguments: [
        ("follow-up-received-by-publisher-01.hex", "ping"), ("follow-up-received-by-subscriber-01.hex", "pong"),
    ])
    func followUpNamesThePeerInstanceAndCarriesTheMessage(name: String, text: String) throws {
        let (header, sda) = try Self.descriptor(name)
        #expect(header.destination != .broadcast)
        #expect(header.destination == (text == "ping" ? Self.publisher : Self.subscriber))
        #expect(sda.controlType == .followUp)
        #expect(sda.instanceID == 1)
        #expect(sda.requestorInstanceID == 1)
        #expect(sda.serviceInfo.map { Array($0) } == Array(text.utf8))
        #expect(sda.matchingFilter == nil)
    }

    @Test(arguments: CapturedFrameTests.names())
    func cutOffCapturedFrameLosesItsAttributeOrIsRejected(name: String) throws {
        let bytes = try Self.bytes(name)
        for length in 0..<bytes.count {
            // Cut right after the action header the SDF is valid but empty; anywhere else it is an error.
            do {
                let frame = try NANManagementFrame(bytes: Array(bytes.prefix(length)))
                #expect(frame.body.attributes.isEmpty, "\(name) cut to \(length) bytes")
            } catch {
                #expect(error.offset <= length, "\(name) cut to \(length) bytes: \(error)")
            }
        }
    }
}
