import Foundation
import NANWire
import Testing

@testable import waware

/// The frames wpa_supplicant 2.12 sent (NANWireTests' Fixtures/wpa_supplicant-2.12, see its README).
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("NANWireTests/Fixtures/wpa_supplicant-2.12")

private func fixtureNames() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []).filter { $0.hasSuffix(".hex") }
        .sorted()
}

private func report(_ name: String) throws -> FrameReport {
    let contents = try DecodeInput.read(fixtures.appendingPathComponent(name).path)
    return try DecodeInput.report(try DecodeInput.bytes(contents: contents, source: name), serviceNames: [:])
}

/// The attribute with `id` in a `decode --json` object.
private func attribute(_ id: Int, in json: [String: Any]) -> [String: Any]? {
    (json["attributes"] as? [[String: Any]])?.first { $0["id"] as? Int == id }
}

/// Every key of `fields` and of their sub-objects, with the path to it, for the duplicate check.
private func duplicateKeys(_ fields: [ReportField], path: String = "") -> [String] {
    var seen: Set<String> = []
    var duplicates: [String] = []
    for field in fields {
        if !seen.insert(field.key).inserted { duplicates.append(path + field.key) }
        switch field.value {
        case .object(let raw, let children):
            if raw != nil, children.contains(where: { $0.key == "raw" }) {
                duplicates.append(path + field.key + ".raw")
            }
            duplicates += duplicateKeys(children, path: path + field.key + ".")
        case .objects(let items):
            for item in items { duplicates += duplicateKeys(item, path: path + field.key + "[].") }
        default:
            break
        }
    }
    return duplicates
}

/// `waware decode` shows every attribute of another NAN stack's frames field by field (issue 23): Device
/// Capability, NAN Availability, DCEA, NIRA, CSIA and the data-path attributes, in text and JSON.
@Suite struct DecodeAttributeFieldsTests {
    @Test func theWPASupplicantFixturesAreHere() {
        #expect(fixtureNames().count == 25)
    }

    @Test(arguments: fixtureNames())
    func everyWPASupplicantFrameDecodesWithNoAttributeLeftAsBytes(name: String) throws {
        let report = try report(name)
        #expect(!report.attributes.isEmpty)
        for attribute in report.attributes {
            #expect(attribute.bodyHex == nil, "\(name): \(attribute.name) printed as bytes")
            let isDescriptor = attribute.id == 0x03 || attribute.id == 0x0E
            #expect(isDescriptor || !attribute.fields.isEmpty, "\(name): \(attribute.name) has no fields")
            #expect(
                duplicateKeys(attribute.fields).isEmpty,
                "\(name): \(attribute.name): \(duplicateKeys(attribute.fields))")
            let clashes = Set(attribute.fields.map(\.key)).intersection(FrameReport.Attribute.fixedKeys)
            #expect(clashes.isEmpty, "\(name): \(attribute.name) fields reuse the keys \(clashes)")
            if !attribute.fields.isEmpty {
                var bare = attribute
                bare.fields = []
                let keys = try JSONSerialization.jsonObject(with: Data(try Output.json(bare).utf8)) as? [String: Any]
                #expect(
                    Set(keys?.keys ?? [:].keys) == FrameReport.Attribute.fixedKeys,
                    "\(name): \(attribute.name) sets other properties")
            }
        }
        #expect(!report.lines.contains { $0.hasPrefix("    body:") || $0.hasPrefix("    summary:") }, "\(name)")
        #expect(!report.lines.joined().contains("not decoded"), "\(name)")
        let json = try JSONSerialization.jsonObject(with: Data(try Output.json(report).utf8)) as? [String: Any]
        #expect((json?["attributes"] as? [Any])?.count == report.attributes.count)
    }

    @Test func publishSDFPrintsDeviceCapabilityAvailabilityDCEANIRAAndCSIAFieldByField() throws {
        let path = fixtures.appendingPathComponent("sk128-ndp-sdf-publish-01.hex").path
        let result = try BinaryRunner.run(["decode", "--file", path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let expected = [
            // Device Capability (0x0F)
            "    map ID:                  all maps (0x00)\n",
            "    committed DW info:       0x0449\n",
            "      2.4 GHz wake interval: 1 (every DW)\n",
            "      5 GHz DW overwrite:    map 1\n",
            "    supported bands:         0x14 (2.4 GHz, 5 GHz)\n",
            "      PHY mode:   HE\n",
            "      80+80 MHz:  yes\n",
            "      paging NDL: no\n",
            "    antennas:                TX 2, RX 2\n",
            "    max channel switch time: 0 µs\n",
            "      NDPE attribute supported:        yes\n",
            // NAN Availability (0x12)
            "    attribute control: 0x0021\n",
            "      potential changed:                     yes\n",
            "          type:                potential\n",
            "          utilization:         7 (unknown)\n",
            "            operating class:        81 (2.4 GHz, 20 MHz)\n",
            "            channels:               1-11\n",
            "            centre channels:        42 (5210 MHz), 155 (5775 MHz)\n",
            // Device Capability Extension (0x2A)
            "    capability info: 0x0300\n",
            "      pairing setup enabled:         yes\n",
            "      NPK/NIK caching enabled:       yes\n",
            // NAN Identity Resolution (0x2B)
            "    cipher version: 0 (128-bit NIK, HMAC-SHA-256)\n",
            "    nonce:          73d852ca4a9cda32\n",
            "    tag:            62286f0284b435d6\n",
            // Cipher Suite Info (0x22)
            "      GTK support:             0 (none)\n",
            "        cipher suite ID: 1 (NCS-SK-128)\n",
            "        publish ID:      1\n",
        ]
        for line in expected { #expect(result.stdout.contains(line), "missing: \(line)") }
    }

    @Test func publishSDFsJSONCarriesTheSameFieldsTyped() throws {
        let path = fixtures.appendingPathComponent("sk128-ndp-sdf-publish-01.hex").path
        let result = try BinaryRunner.run(["decode", "--json", "--file", path])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let capability = try #require(attribute(0x0F, in: json))
        let dw = capability["committedDWInfo"] as? [String: Any]
        #expect(dw?["raw"] as? Int == 0x0449)
        #expect(dw?["wakeInterval2_4GHz"] as? Int == 1)
        #expect(dw?["overwriteMapID5GHz"] as? Int == 1)
        #expect((capability["supportedBands"] as? [String: Any])?["bands"] as? [String] == ["2.4 GHz", "5 GHz"])
        #expect((capability["operationMode"] as? [String: Any])?["phyMode"] as? String == "HE")
        #expect((capability["capabilities"] as? [String: Any])?["ndpeAttributeSupported"] as? Bool == true)
        let availability = try #require(attribute(0x12, in: json))
        #expect((availability["attributeControl"] as? [String: Any])?["mapID"] as? Int == 1)
        let entry = (availability["entries"] as? [[String: Any]])?.first
        #expect((entry?["entryControl"] as? [String: Any])?["type"] as? [String] == ["potential"])
        #expect(((entry?["channelEntries"] as? [[String: Any]])?.first)?["channels"] as? [Int] == Array(1...11))
        let dcea = (attribute(0x2A, in: json)?["capabilityInfo"] as? [String: Any])
        #expect(dcea?["pairingSetupEnabled"] as? Bool == true)
        #expect(dcea?["regulatoryInfoPresent"] as? Bool == false)
        #expect(attribute(0x2B, in: json)?["nonce"] as? String == "73d852ca4a9cda32")
        let suites = attribute(0x22, in: json)?["cipherSuites"] as? [[String: Any]]
        #expect(suites?.first?["cipherSuite"] as? String == "NCS-SK-128")
        #expect(suites?.first?["publishID"] as? Int == 1)
    }

    /// The README's schedule (2437 MHz slots 1-3, 5180 MHz slots 4-31) as the data path response prints it.
    @Test func dataPathResponsePrintsTheCommittedSlotsAndTheSecurityAttributes() throws {
        let report = try report("sk128-ndp-naf-data-path-response-01.hex")
        let text = report.lines.joined(separator: "\n")
        for line in [
            "          type:                committed", "          slots:        1-3", "          slots:        4-31",
            "            channels:               6 (2437 MHz)", "            primary channel:        36 (5180 MHz)",
            "        identifier: e7790fdc5d894fe65b9619441b29a413",
            "      key MIC (16 bytes): c2c423388fcba49b2abddebedc4a8346",
            "        type:          1 (service info)", "        service info:  ddeeff",
            "    NDC ID:   04:56:63:52:71:e0",
            "      NDL setup reason:           0 (NDP)", "        element ID:                  45 (HT Capabilities)",
            "        RX MCS map:          0xaaaa (streams 1-8: MCS 0-9)",
        ] {
            #expect(text.contains(line), "missing: \(line)")
        }
    }

    @Test func anAttributeTheCodecDoesNotKnowStillPrintsItsBytes() {
        let frame = NANFrame.serviceDiscovery(
            ServiceDiscoveryFrame(attributes: [.unknown(UnknownAttribute(id: NANAttributeID(0x2E), body: [1, 2][...]))])
        )
        let report = FrameReport(frame, header: nil, length: 0, serviceNames: [:])
        #expect(report.attributes.first?.bodyHex == "0102")
        #expect(report.lines.contains("    body:    0102"))
    }

    @Test func numberListsCollapseRuns() {
        #expect(ReportField.ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8")
        #expect(ReportField.ranges([]) == "none")
    }

    @Test func jsonOnlyFieldsStayOutOfTheText() {
        let fields: [ReportField] = [
            .number("id", "ID", 1, text: "1 (one)"), ReportField.string("name", "name", "one").jsonOnlyField,
        ]
        #expect(ReportField.lines(fields, indent: "") == ["ID: 1 (one)"])
    }
}
