import NANWire
import Testing
@testable import NANEngine

/// A publish that takes only secure data paths says so in its SDFs, as the specification has it and as
/// wpa_supplicant 2.12 does (its NCS-SK publish: SDEA control 0x44, a CSIA naming NCS-SK-128 for the publish):
/// the SDEA's "security required" bit and a Cipher Suite Info attribute listing the suites with the publish ID.
@Suite struct SecureDataPathAnnouncementTests {
    static func published(_ bytes: [UInt8]) throws -> (ServiceDescriptorExtensionAttribute?, CipherSuiteInfoAttribute?)
    {
        let frame = try NANManagementFrame(bytes: bytes)
        guard case .serviceDiscovery(let sdf) = frame.body else { return (nil, nil) }
        let sdea = sdf.attributes.compactMap { if case .serviceDescriptorExtension(let a) = $0 { a } else { nil } }
            .first
        let csia = sdf.attributes.compactMap { if case .cipherSuiteInfo(let a) = $0 { a } else { nil } }.first
        return (sdea, csia)
    }

    @Test func aSecurePublishAnnouncesSecurityRequiredAndItsSuitesAndAnOpenOneDoesNot() async throws {
        let bench = await Bench()
        var publish = PublishConfiguration(serviceID: service("sec"))
        publish.type = .unsolicited
        publish.offersDataPath = true
        let session = try await bench.engines[0].publish(publish)
        await bench.ticks(1)
        let open = try Self.published(try #require(await bench.air.sent.last { $0.from == address(1) }).bytes)
        #expect(
            open.0?.control.contains(.dataPathRequired) == true && open.0?.control.contains(.securityRequired) == false)
        #expect(open.1 == nil)

        await bench.engines[0].core.setDataPathCipherSuites([.skCCM128, .skGCM256], for: session.instanceID)
        await bench.ticks(1)
        let secure = try Self.published(try #require(await bench.air.sent.last { $0.from == address(1) }).bytes)
        #expect(secure.0?.control.contains([.dataPathRequired, .securityRequired]) == true)
        #expect(
            secure.1?.entries == [
                .init(suite: .skCCM128, publishID: session.instanceID),
                .init(suite: .skGCM256, publishID: session.instanceID),
            ])

        // Open again, and a stopped publish leaves nothing behind.
        await bench.engines[0].core.setDataPathCipherSuites([], for: session.instanceID)
        await bench.ticks(1)
        #expect(try Self.published(try #require(await bench.air.sent.last { $0.from == address(1) }).bytes).1 == nil)
        await bench.engines[0].core.setDataPathCipherSuites([.skCCM128], for: session.instanceID)
        await session.stop()
        #expect(await bench.engines[0].core.publishCipherSuites.isEmpty)
    }
}
