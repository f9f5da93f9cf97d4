import Foundation
import NANCrypto
import NANSystem
import NANWire
import Testing

@testable import waware

/// The repository root, found from this file's path (Tests/CLITests/<file>).
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// A follow-up SDF from 02:00:00:00:00:02 to :01 for `_chat._tcp`, instance 3 answering 7, info "ping",
/// as a whole management frame.
private func followUpFrame() throws -> [UInt8] {
    let descriptor = ServiceDescriptorAttribute(
        serviceID: try ServiceID(serviceName: "_chat._tcp"), instanceID: 3, requestorInstanceID: 7,
        controlType: .followUp, matchingFilter: try MatchingFilter(elements: [Array("red".utf8), []]),
        serviceInfo: ArraySlice("ping".utf8))
    let header = ManagementHeader(
        destination: MACAddress(2, 0, 0, 0, 0, 1), source: MACAddress(2, 0, 0, 0, 0, 2),
        bssid: MACAddress(0x50, 0x6f, 0x9a, 0x01, 0x12, 0x34))
    let frame = NANManagementFrame(
        header: header, body: .serviceDiscovery(ServiceDiscoveryFrame(attributes: [.serviceDescriptor(descriptor)])))
    return try frame.encoded()
}

private func hex(_ bytes: [UInt8]) -> String { FrameReport.hex(bytes) }

@Suite struct DecodeCommandTests {
    @Test func wholeFramePrintsAddressesAndTypedServiceDescriptorFields() throws {
        let result = try BinaryRunner.run(["decode", hex(try followUpFrame()), "--service", "_chat._tcp"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let id = try ServiceID(serviceName: "_chat._tcp")
        #expect(result.stdout.hasPrefix("SDF, "))
        #expect(result.stdout.contains("from 02:00:00:00:00:02 to 02:00:00:00:00:01, cluster/BSSID 50:6f:9a:01:12:34"))
        #expect(result.stdout.contains("type:                  follow-up\n"))
        #expect(result.stdout.contains("service ID:            \(id) (_chat._tcp)\n"))
        #expect(result.stdout.contains("instance ID:           3\n"))
        #expect(result.stdout.contains("requestor instance ID: 7\n"))
        #expect(result.stdout.contains("control:               0x16 (matching filter, service info)\n"))
        #expect(result.stdout.contains("matching filter:       \"red\" *\n"))
        #expect(result.stdout.contains("service info:          \"ping\" (70696e67)\n"))
    }

    @Test func actionBodyAloneIsDetectedAndHasNoHeader() throws {
        let body = Array(try followUpFrame().dropFirst(ManagementHeader.length))
        let result = try BinaryRunner.run(["decode", "--json", hex(body)])
        #expect(result.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(report?["kind"] as? String == "SDF")
        #expect(report?["header"] == nil)
        let attribute = (report?["attributes"] as? [[String: Any]])?.first
        #expect(attribute?["type"] as? String == "follow-up")
        #expect(attribute?["requestorInstanceID"] as? Int == 7)
        #expect(attribute?["serviceInfo"] as? String == "ping")
        #expect(attribute?["serviceName"] == nil)
    }

    @Test func frameFileWithRawBytesDecodes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("waware-decode-\(getpid()).bin")
        try Data(try followUpFrame()).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let result = try BinaryRunner.run(["decode", "--file", path.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("type:                  follow-up\n"))
    }

    @Test func truncatedFrameExitsWithMalformedFrameAndOneLine() throws {
        let frame = try followUpFrame()
        let result = try BinaryRunner.run(["decode", hex(Array(frame.dropLast(2)))])
        #expect(result.status == ExitCode.malformedFrame.rawValue)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.hasPrefix("waware: malformed frame: ") == true)
        #expect(result.stderr.contains("Service Descriptor"))
    }

    @Test func badHexIsAUsageError() throws {
        for argument in ["d0 0", "xyz", "d0g0"] {
            let result = try BinaryRunner.run(["decode", argument])
            #expect(result.status == ExitCode.usage.rawValue, "\(argument)")
            #expect(result.stderrLines.count == 1)
            #expect(result.stderr.contains("is not hex"))
        }
    }

    @Test func noInputOrTwoInputsIsAUsageError() throws {
        #expect(try BinaryRunner.run(["decode"]).status == ExitCode.usage.rawValue)
        #expect(try BinaryRunner.run(["decode", "d000", "--file", "/dev/null"]).status == ExitCode.usage.rawValue)
    }

    @Test func recordedFrameEventDecodesWithItsChannel() throws {
        let fixture = repositoryRoot.appendingPathComponent(
            "Tests/NANSystemTests/Fixtures/frame-received-sdf-event.nlmsgs")
        let result = try BinaryRunner.run(["decode", "--nlmsgs", fixture.path])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix("frame 1 (frame-received-sdf-event.nlmsgs, 2437 MHz, -50 dBm): SDF, 42 bytes\n"))
        #expect(result.stdout.contains("from 42:00:00:00:02:00 to ff:ff:ff:ff:ff:ff"))
    }

    @Test func recordingWithoutFramesFails() throws {
        let fixture = repositoryRoot.appendingPathComponent("Tests/NANSystemTests/Fixtures/frame-send-reply.nlmsgs")
        let result = try BinaryRunner.run(["decode", "--nlmsgs", fixture.path])
        #expect(result.status == ExitCode.failure.rawValue)
        #expect(result.stderrLines == ["waware: no received frames in the recording '\(fixture.path)'"])
    }

    @Test func standardInputIsReadForADash() throws {
        let process = Process()
        process.executableURL = BinaryRunner.binaryURL
        process.arguments = ["decode", "-"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data((hex(try followUpFrame()) + "\n").utf8))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.contains("requestor instance ID: 7\n"))
    }

    @Test func extensionAndResponseFilterFieldsAreTyped() throws {
        let descriptor = ServiceDescriptorAttribute(
            serviceID: try ServiceID(serviceName: "_chat._tcp"), instanceID: 4, controlType: .subscribe,
            serviceResponseFilter: ServiceResponseFilter(
                include: true, addressSet: .addresses([MACAddress(2, 0, 0, 0, 0, 9)])))
        let descriptorExtension = ServiceDescriptorExtensionAttribute(
            instanceID: 4, control: [.dataPathRequired, .securityRequired],
            serviceInfo: .init(protocolType: .generic, info: ArraySlice([0x00, 0xff])))
        let frame = NANFrame.serviceDiscovery(
            ServiceDiscoveryFrame(attributes: [
                .serviceDescriptor(descriptor),
                .serviceDescriptorExtension(descriptorExtension),
            ]))
        let report = FrameReport(frame, header: nil, length: 0, serviceNames: [:])
        let lines = report.lines.joined(separator: "\n")
        #expect(lines.contains("control:               0x9 (service response filter)"))
        #expect(lines.contains("response filter:       only these respond: 02:00:00:00:00:09"))
        #expect(report.attributes[1].controlBits == ["data path required", "security required"])
        #expect(report.attributes[1].protocolType == ServiceProtocolType.generic.description)
        #expect(report.attributes[1].serviceInfo == nil)
        #expect(report.attributes[1].serviceInfoHex == "00ff")
        #expect(lines.contains("service info: 00ff"))
    }

    @Test func hexAcceptsSeparatorsAndPrefix() {
        #expect(DecodeInput.bytes(hex: "0xd0 00:3a-01\n") == [0xd0, 0x00, 0x3a, 0x01])
        #expect(DecodeInput.bytes(hex: "d0 0") == nil)
        #expect(DecodeInput.bytes(hex: "") == nil)
    }

    @Test func fileContentsAreHexTextOrRawBytes() throws {
        #expect(try DecodeInput.bytes(contents: Array("04 09\n".utf8), source: "f") == [0x04, 0x09])
        #expect(try DecodeInput.bytes(contents: [0xd0, 0x00, 0x3a], source: "f") == [0xd0, 0x00, 0x3a])
    }

    @Test func hexFileWithDashSeparatorsIsHex() throws {
        #expect(try DecodeInput.bytes(contents: Array("04-09-50-6f\n".utf8), source: "f") == [0x04, 0x09, 0x50, 0x6f])
    }

    @Test func hexFileWithAnOddDigitCountIsAnErrorNotRawBytes() {
        #expect(throws: ValidationError.self) { try DecodeInput.bytes(contents: Array("04 09 5\n".utf8), source: "f") }
        #expect(throws: ValidationError.self) { try DecodeInput.bytes(contents: Array("hello\n".utf8), source: "f") }
    }

    @Test func eachByteMayCarryAnHexPrefix() {
        #expect(DecodeInput.bytes(hex: "0x04 0x09 0x50") == [0x04, 0x09, 0x50])
        #expect(DecodeInput.bytes(hex: "0X0409") == [0x04, 0x09])
    }

    @Test func hexRefusesSigns() {
        #expect(DecodeInput.bytes(hex: "+4 09") == nil)
        #expect(DecodeInput.bytes(hex: "04 +9") == nil)
    }
}
