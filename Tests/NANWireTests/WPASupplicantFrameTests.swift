import Foundation
import Testing
@testable import NANWire

/// Frames another NAN stack (wpa_supplicant 2.12) sent on Linux 7.2 hwsim radios (Fixtures/wpa_supplicant-2.12,
/// see its README). Every one must decode, and every field we decode is checked against what the README
/// says the runs were configured with, never against our own encoder. (The key derivation checks of the
/// secure run belong with the crypto module's tests.)
@Suite struct WPASupplicantFrameTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/wpa_supplicant-2.12")

    /// First 6 bytes of SHA-256 of the service name, computed outside Swift:
    /// `printf '%s' _example-service._tcp | openssl dgst -sha256` (c57ed9d5d167 11ee...).
    static let exampleService = ServiceID(hex: "c57ed9d5d167")!
    /// `printf '%s' _filt._tcp | openssl dgst -sha256` (326e8dfa550e f1ca...).
    static let filterService = ServiceID(hex: "326e8dfa550e")!
    /// From the README: NMIs and NDIs of the two devices, the NAN broadcast address.
    static let publisherNMI = MACAddress(0x42, 0, 0, 0, 0, 0)
    static let subscriberNMI = MACAddress(0x42, 0, 0, 0, 1, 0)
    static let publisherNDI = MACAddress(0x52, 0, 0, 0, 0, 0)
    static let subscriberNDI = MACAddress(0x52, 0, 0, 0, 1, 0)
    static let nanBroadcast = MACAddress(0x51, 0x6f, 0x9a, 0x01, 0, 0)
    /// Wi-Fi Alliance OUI, in the service info of an SDEA or an NDPE TLV.
    static let wfa = [UInt8]([0x50, 0x6f, 0x9a])

    static func names(_ prefix: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".hex") && $0.hasPrefix(prefix) }.sorted()
    }

    static func frame(_ name: String) throws -> NANManagementFrame {
        try NANManagementFrame(bytes: hex(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)))
    }

    /// The frame's one SDF message (descriptor and extension).
    static func message(_ name: String) throws -> (ManagementHeader, ServiceDiscoveryMessage) {
        let frame = try frame(name)
        guard case .serviceDiscovery(let sdf) = frame.body else {
            throw NANWireError(.notThisFrame, at: 0, "\(name) is not an SDF")
        }
        let messages = try sdf.messages()
        guard messages.count == 1, let message = messages.first else {
            throw NANWireError(.missing, at: 0, "\(name) has \(messages.count) service descriptors")
        }
        return (frame.header, message)
    }

    static func dataPath(_ name: String) throws -> (ManagementHeader, DataPathMessage) {
        let frame = try frame(name)
        guard case .action(let naf) = frame.body else {
            throw NANWireError(.notThisFrame, at: 0, "\(name) is not a NAF")
        }
        return (frame.header, try DataPathMessage(naf))
    }

    static func ndpe(_ message: DataPathMessage) -> NDPExtensionAttribute? {
        if case .ndpExtension(let a) = message.ndp { return a }
        return nil
    }

    // MARK: every frame

    @Test func theTwentyFiveFramesAreAllHere() {
        #expect(Self.names().count == 25, "\(Self.names())")
        #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("README.md").path))
    }

    @Test(arguments: WPASupplicantFrameTests.names())
    func everyFrameDecodesWithItsClusterInAddress3(name: String) throws {
        let frame = try Self.frame(name)
        #expect(frame.header.frameControl == ManagementHeader.actionFrameControl)
        #expect(
            frame.header.bssid.bytes.prefix(4) == [0x50, 0x6f, 0x9a, 0x01], "cluster id in A3: \(frame.header.bssid)")
        #expect([Self.publisherNMI, Self.subscriberNMI].contains(frame.header.source), "\(frame.header.source)")
        #expect([Self.publisherNMI, Self.subscriberNMI, Self.nanBroadcast].contains(frame.header.destination))
        switch frame.body {
        case .serviceDiscovery(let sdf):
            #expect(name.contains("-sdf-"))
            #expect(try sdf.messages().count == 1)
        case .action:
            #expect(name.contains("-naf-"))
            _ = try Self.dataPath(name)
        }
    }

    @Test func eachRunKeepsOneClusterID() throws {
        for run in ["open-ndp", "sk128-ndp", "filters"] {
            let clusters = Set(try Self.names(run).map { try Self.frame($0).header.bssid })
            #expect(clusters.count == 1, "\(run): \(clusters)")
        }
    }

    // MARK: discovery (open-ndp and sk128-ndp runs)

    @Test(arguments: ["open-ndp", "sk128-ndp"])
    func publishCarriesServiceIDInstanceSSIAndDataPath(run: String) throws {
        for name in Self.names("\(run)-sdf-publish") {
            let (header, message) = try Self.message(name)
            let d = message.descriptor
            #expect(d.serviceID == Self.exampleService, "\(name)")
            #expect(d.controlType == .publish)
            #expect(d.instanceID == 1, "publish instance 1")
            #expect(d.matchingFilter == nil)
            // ssi=aabbccdd with srv_proto_type=2 goes in the extension attribute, after the WFA OUI.
            let ext = try #require(message.descriptorExtension, "\(name): no SDEA")
            #expect(ext.instanceID == 1)
            #expect(ext.serviceInfo?.oui.rawValue == 0x506F9A, "the Wi-Fi Alliance OUI")
            #expect(ext.serviceInfo?.protocolType == .generic)
            #expect(ext.serviceInfo.map { Array($0.info) } == [0xaa, 0xbb, 0xcc, 0xdd])
            #expect(message.serviceSpecificInfo.map(Array.init) == [0xaa, 0xbb, 0xcc, 0xdd])
            #expect(ext.control.contains(.dataPathRequired), "data_path=1")
            #expect(ext.control.contains(.securityRequired) == (run == "sk128-ndp"), "cipher_suites=1 only in sk128")
            #expect(!ext.control.contains(.fsdRequired), "fsd=0")
            if header.destination == .broadcast || header.destination == Self.nanBroadcast {
                #expect(d.requestorInstanceID == 0, "\(name): unsolicited")
                #expect(header.source == Self.publisherNMI)
            } else {
                // A reply to the active subscribe, addressed to it and naming its instance (2, see below).
                #expect(header.destination == Self.subscriberNMI)
                #expect(d.requestorInstanceID == 2, "\(name): answers the active subscribe, instance 2")
            }
        }
    }

    /// The README: "subscribe instance 1, passive then active". A passive subscribe sends nothing; the active
    /// one that follows is the subscriber's second subscribe, instance 2, and that is what is on the air.
    @Test(arguments: ["open-ndp", "sk128-ndp"])
    func activeSubscribeCarriesServiceIDAndTheSecondInstance(run: String) throws {
        let names = Self.names("\(run)-sdf-subscribe")
        #expect(names.count == 2)
        for name in names {
            let (header, message) = try Self.message(name)
            #expect(header.source == Self.subscriberNMI, "\(name)")
            #expect(message.descriptor.serviceID == Self.exampleService)
            #expect(message.descriptor.controlType == .subscribe)
            #expect(message.descriptor.instanceID == 2, "the active subscribe after the passive one")
            #expect(message.descriptor.requestorInstanceID == 0)
        }
    }

    @Test(arguments: ["open-ndp", "sk128-ndp"])
    func followUpGoesFromSubscriberInstanceToPublisherInstanceWithSSI0102(run: String) throws {
        let (header, message) = try Self.message("\(run)-sdf-followup-01.hex")
        #expect(header.destination == Self.publisherNMI)
        #expect(header.source == Self.subscriberNMI)
        #expect(message.descriptor.serviceID == Self.exampleService)
        #expect(message.descriptor.controlType == .followUp)
        #expect(message.descriptor.instanceID == 1, "to publish instance 1")
        #expect(message.descriptor.requestorInstanceID == 1, "from subscribe instance 1, the passive one that found it")
        #expect(message.serviceSpecificInfo.map(Array.init) == [0x01, 0x02])
        #expect(message.descriptorExtension?.serviceInfo?.protocolType == .generic)
    }

    @Test func secureRunsPublishAdvertisesCipherSuite1ForPublishInstance1() throws {
        for name in Self.names("sk128-ndp-sdf-publish") {
            let frame = try Self.frame(name)
            guard case .serviceDiscovery(let sdf) = frame.body else { Issue.record("\(name)"); continue }
            let suites = sdf.attributes.compactMap { attribute -> CipherSuiteInfoAttribute? in
                if case .cipherSuiteInfo(let a) = attribute { return a }
                return nil
            }
            #expect(suites.count == 1, "\(name)")
            #expect(suites.first?.entries == [.init(suite: .skCCM128, publishID: 1)])
        }
    }

    // MARK: matching filters (filters run)

    @Test func filterRunsPublishCarriesFilterXY() throws {
        let broadcasts = try Self.names("filters-sdf-publish").map(Self.message).filter {
            $0.0.destination == Self.nanBroadcast
        }
        #expect(broadcasts.count == 2)
        for (_, message) in broadcasts {
            #expect(message.descriptor.serviceID == Self.filterService)
            #expect(message.descriptor.controlType == .publish)
            #expect(
                message.descriptor.matchingFilter == (try MatchingFilter(elements: [Array("x".utf8), Array("y".utf8)])))
        }
    }

    @Test func filterRunsActiveSubscribeCarriesFilterABC() throws {
        for name in ["filters-sdf-subscribe-01.hex", "filters-sdf-subscribe-03.hex"] {
            let (_, message) = try Self.message(name)
            #expect(message.descriptor.serviceID == Self.filterService)
            #expect(message.descriptor.controlType == .subscribe)
            #expect(
                message.descriptor.matchingFilter
                    == (try MatchingFilter(elements: [Array("a".utf8), Array("b".utf8), Array("c".utf8)])), "\(name)")
        }
    }

    // MARK: data path (NDPE attribute, 0x29)

    @Test(arguments: ["open-ndp", "sk128-ndp"])
    func ndpRequestFromTheSubscribersNDIForPublishInstance1WithSSIaabbcc(run: String) throws {
        let (header, message) = try Self.dataPath("\(run)-naf-data-path-request-01.hex")
        #expect(message.subtype == .dataPathRequest)
        #expect(header.source == Self.subscriberNMI)
        #expect(header.destination == Self.publisherNMI)
        let ndpe = try #require(Self.ndpe(message), "the README: NDPE (0x29), not NDP (0x0E)")
        #expect(ndpe.type == .request)
        #expect(ndpe.initiatorNDI == Self.subscriberNDI)
        #expect(ndpe.publishID == 1)
        #expect(ndpe.responderNDI == nil)
        #expect(ndpe.ndpID == 1, "NDP id 1")
        #expect(ndpe.confirmRequired)
        #expect(ndpe.securityPresent == (run == "sk128-ndp"))
        let info = ndpe.tlvs.first { $0.type == NDPETLV.serviceInfo }
        #expect(
            info.map { Array($0.value) } == Self.wfa + [0x02, 0xaa, 0xbb, 0xcc],
            "ssi=aabbcc after the OUI and protocol 2")
    }

    @Test(arguments: ["open-ndp", "sk128-ndp"])
    func ndpResponseAcceptsFromThePublishersNDIWithSSIddeeff(run: String) throws {
        let (header, message) = try Self.dataPath("\(run)-naf-data-path-response-01.hex")
        #expect(message.subtype == .dataPathResponse)
        #expect(header.source == Self.publisherNMI)
        #expect(header.destination == Self.subscriberNMI)
        let ndpe = try #require(Self.ndpe(message))
        #expect(ndpe.type == .response)
        // Accepted, with a confirm to follow: status "continued" (the confirm carries "accepted").
        #expect(ndpe.status == .continued)
        #expect(ndpe.initiatorNDI == Self.subscriberNDI)
        #expect(ndpe.responderNDI == Self.publisherNDI)
        #expect(ndpe.ndpID == 1)
        #expect(ndpe.securityPresent == (run == "sk128-ndp"))
        let info = ndpe.tlvs.first { $0.type == NDPETLV.serviceInfo }
        #expect(info.map { Array($0.value) } == Self.wfa + [0x02, 0xdd, 0xee, 0xff])
    }

    /// The open NDP is accepted by the confirm; the secure one continues to the key install.
    @Test(arguments: ["open-ndp", "sk128-ndp"])
    func ndpConfirmAcceptsOrContinuesToTheKeyInstall(run: String) throws {
        let (header, message) = try Self.dataPath("\(run)-naf-data-path-confirm-01.hex")
        #expect(message.subtype == .dataPathConfirm)
        #expect(header.source == Self.subscriberNMI)
        let ndpe = try #require(Self.ndpe(message))
        #expect(ndpe.type == .confirm)
        #expect(ndpe.status == (run == "open-ndp" ? .accepted : .continued))
        #expect(ndpe.initiatorNDI == Self.subscriberNDI)
        #expect(ndpe.ndpID == 1)
    }

    @Test func secureRunsKeyInstallAccepts() throws {
        let (header, message) = try Self.dataPath("sk128-ndp-naf-data-path-key-install-01.hex")
        #expect(message.subtype == .dataPathKeyInstall)
        #expect(header.source == Self.publisherNMI)
        let ndpe = try #require(Self.ndpe(message))
        #expect(ndpe.type == .securityInstall)
        #expect(ndpe.status == .accepted)
        #expect(ndpe.ndpID == 1)
        #expect(message.sharedKeyDescriptor?.publishID == 1)
    }

    @Test func secureRunsRequestAndResponseCarryCipherSuite1AndAPMKIDForPublishInstance1() throws {
        for name in ["sk128-ndp-naf-data-path-request-01.hex", "sk128-ndp-naf-data-path-response-01.hex"] {
            let (_, message) = try Self.dataPath(name)
            let suites = try #require(message.cipherSuiteInfo, "\(name)")
            #expect(suites.entries == [.init(suite: .skCCM128, publishID: 1)], "cipher suite 1 (NCS-SK-128)")
            let context = try #require(message.securityContextInfo, "\(name)")
            #expect(context.entries.count == 1)
            #expect(context.entries.first?.type == SecurityContextInfoAttribute.Entry.ndPMKID)
            #expect(context.entries.first?.publishID == 1)
            #expect(context.entries.first?.identifier.count == 16, "a PMKID is 16 bytes")
            #expect(message.sharedKeyDescriptor?.publishID == 1, "\(name)")
        }
        let (_, confirm) = try Self.dataPath("sk128-ndp-naf-data-path-confirm-01.hex")
        #expect(confirm.sharedKeyDescriptor?.publishID == 1)
    }

    @Test func openRunsDataPathFramesCarryNoSecurity() throws {
        for name in Self.names("open-ndp-naf") {
            let (_, message) = try Self.dataPath(name)
            #expect(message.cipherSuiteInfo == nil, "\(name)")
            #expect(message.securityContextInfo == nil, "\(name)")
            #expect(message.sharedKeyDescriptor == nil, "\(name)")
        }
    }

    // MARK: device attributes (Device Capability, NAN Availability, DCEA, NIRA)

    static func attributes(_ name: String) throws -> [NANAttribute] {
        switch try frame(name).body {
        case .serviceDiscovery(let sdf): return sdf.attributes
        case .action(let naf): return naf.attributes
        }
    }

    /// hostap puts map ID 0 ("applies to the device") in its Device Capability and the schedule's map
    /// (README: map_id=1) in the committed DW overwrite fields; its schedule uses 2.4 and 5 GHz, and its data
    /// path uses NDPE (README), which the capabilities announce.
    @Test(arguments: WPASupplicantFrameTests.names())
    func everyFrameCarriesADeviceCapabilityForAllMapsWithBothBandsAndNDPE(name: String) throws {
        let capabilities = try Self.attributes(name).compactMap { attribute -> DeviceCapabilityAttribute? in
            if case .deviceCapability(let a) = attribute { return a }
            return nil
        }
        let a = try #require(capabilities.first, "\(name): no Device Capability")
        #expect(capabilities.count == 1)
        #expect(!a.appliesToOneMapOnly, "applies to every map")
        #expect(a.committedDW.overwriteMapID2_4GHz == 1 && a.committedDW.overwriteMapID5GHz == 1, "map_id=1")
        #expect(
            a.committedDW.wakeInterval2_4GHz == 1 && a.committedDW.wakeInterval5GHz == 1, "wakes every DW in both bands"
        )
        #expect(a.bands == [.band2_4GHz, .band5GHz])
        #expect(a.capabilityFlags.contains(.ndpeAttributeSupported))
        #expect(a.txAntennas == 2 && a.rxAntennas == 2)
    }

    /// The README's schedule, `map_id=1 2437:0e000000 5180:f0ffffff`: committed on 2437 MHz in slots 1–3
    /// and on 5180 MHz (the primary 20 MHz of the 80 MHz block) in slots 4–31, 16 TU slots repeating
    /// every 512 TU.
    @Test func committedScheduleIs2437MHzSlots1To3And5180MHzSlots4To31() throws {
        var framesWithCommitted = 0
        for name in Self.names() {
            for case .availability(let a) in try Self.attributes(name) {
                #expect(a.mapID == 1, "\(name)")
                let committed = a.entries.filter { $0.types.contains(.committed) }
                guard !committed.isEmpty else { continue }
                framesWithCommitted += 1
                var schedule: [Int: [Int]] = [:]
                for entry in committed {
                    let bitmap = try #require(entry.timeBitmap, "\(name): committed entry without a time bitmap")
                    #expect(bitmap.bitDurationTU == 16 && bitmap.periodTU == 512 && bitmap.startOffsetTU == 0)
                    guard case .channels(let channels)? = entry.bandChannels, channels.count == 1,
                        let channel = channels.first,
                        let opClass = channel.globalOperatingClass
                    else {
                        Issue.record("\(name): committed entry without one known channel")
                        continue
                    }
                    let primary = try #require(channel.primaryChannels?.first ?? channel.channels?.first)
                    schedule[opClass.frequency(ofChannel: primary)] = bitmap.slots
                }
                #expect(schedule == [2437: [1, 2, 3], 5180: Array(4...31)], "\(name)")
            }
        }
        #expect(framesWithCommitted >= 10, "the NAFs and the later SDFs carry the committed schedule")
    }

    /// Every availability attribute also offers wpa_supplicant's potential channels: all of 2.4 GHz
    /// channels 1-11 and the 5 GHz classes, without a time bitmap (all the time).
    @Test func potentialEntryOffers2GHzChannels1To11AndThe5GHzClasses() throws {
        for name in Self.names() {
            for case .availability(let a) in try Self.attributes(name) {
                let potential = try #require(a.entries.first { $0.types == [.potential] }, "\(name)")
                #expect(potential.timeBitmap == nil)
                guard case .channels(let channels)? = potential.bandChannels else { Issue.record("\(name)"); continue }
                #expect(channels.first?.operatingClass == 81 && channels.first?.channels == Array(1...11))
                #expect(channels.allSatisfy { $0.globalOperatingClass != nil && $0.channels != nil }, "\(name)")
            }
        }
    }

    @Test(arguments: WPASupplicantFrameTests.names())
    func deviceCapabilityExtensionSaysPairingSetupAndNPKCachingWithoutRegulatoryInfo(name: String) throws {
        let extensions = try Self.attributes(name).compactMap { attribute -> DeviceCapabilityExtensionAttribute? in
            if case .deviceCapabilityExtension(let a) = attribute { return a }
            return nil
        }
        let a = try #require(extensions.first, "\(name): no DCEA")
        #expect(!a.regulatoryInfoPresent && a.regulatoryInfo == nil)
        #expect(a.pairingSetupSupported && a.npkNIKCachingSupported)
        #expect(a.unnamedCapabilityBits == 0 && a.moreCapabilityInfo.isEmpty)
    }

    /// Each SDF carries its sender's identity resolution attribute (cipher version 0); within a run, one
    /// device sends the same nonce and tag in all its SDFs. NAFs go to a known peer and carry none.
    @Test func sdfsCarryTheSendersNIRAAndNAFsNone() throws {
        for run in ["open-ndp", "sk128-ndp", "filters"] {
            var bySender: [MACAddress: Set<[UInt8]>] = [:]
            for name in Self.names(run) {
                let iras = try Self.attributes(name).compactMap { attribute -> IdentityResolutionAttribute? in
                    if case .identityResolution(let a) = attribute { return a }
                    return nil
                }
                guard name.contains("-sdf-") else {
                    #expect(iras.isEmpty, "\(name)")
                    continue
                }
                let a = try #require(iras.first, "\(name): no NIRA")
                #expect(a.cipherVersion == 0 && a.nonce.count == 8 && a.tag.count == 8)
                bySender[try Self.frame(name).header.source, default: []].insert(Array(a.nonce) + Array(a.tag))
            }
            #expect(bySender.values.allSatisfy { $0.count == 1 }, "\(run): \(bySender)")
        }
    }

    @Test func secureRunsCipherSuiteInfoNamesNCSSK128AndItsCapabilities() throws {
        for name in Self.names("sk128-ndp") {
            for case .cipherSuiteInfo(let a) in try Self.attributes(name) {
                #expect(a.entries.map(\.suite.description) == ["NCS-SK-128"], "\(name)")
                let capabilities = a.capabilityFields
                #expect(capabilities.ndTKSAReplayCounters == 4 && capabilities.gtksaReplayCounters == 4)
                #expect(!capabilities.usesBIPGMAC256 && capabilities.reservedBits == 0)
                // The SDF offers no group keys; the data path request and response say GTK and IGTK.
                #expect(capabilities.gtkSupport == (name.contains("-sdf-") ? 0 : 1), "\(name)")
            }
        }
    }

    /// The four Shared-Key Descriptors are the NCS-SK 4-way handshake: message 1 (request) acks without a
    /// MIC, 2 (response) has the MIC, 3 (confirm) is secure, installs and wraps its key data, 4 (key
    /// install) is secure with a MIC and, from wpa_supplicant, wrapped key data too; the replay counter is
    /// 1 then 2. The confirm and key install carry
    /// no cipher suite info, so their MIC length comes from the bytes alone.
    @Test func secureRunsKeyDescriptorsFollowTheFourWayHandshake() throws {
        typealias Info = RSNKeyDescriptor.KeyInformation
        let expected: [(String, Info, UInt64)] = [
            ("request", [.pairwise, .ack], 1),
            ("response", [.pairwise, .mic], 1),
            ("confirm", [.pairwise, .install, .ack, .mic, .secure, .encryptedKeyData], 2),
            ("key-install", [.pairwise, .install, .mic, .secure, .encryptedKeyData], 2),
        ]
        for (step, info, counter) in expected {
            let (_, message) = try Self.dataPath("sk128-ndp-naf-data-path-\(step)-01.hex")
            let attribute = try #require(message.sharedKeyDescriptor, "\(step)")
            let descriptor = try attribute.decodedKeyDescriptor(suite: NANCipherSuite?.none)
            #expect(descriptor.mic.count == 16, "NCS-SK-128: a 16-byte MIC")
            #expect(
                descriptor.keyInformation == info, "\(step): 0x\(String(descriptor.keyInformation.rawValue, radix: 16))"
            )
            #expect(descriptor.replayCounter == counter, "\(step)")
        }
    }
}
