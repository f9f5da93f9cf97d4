import NANWire

/// Fields of the security and pairing attributes: Cipher Suite Info, Security Context Info, Shared-Key
/// Descriptor (with its RSN key descriptor), Device Capability Extension, NAN Identity Resolution and NAN
/// Pairing Bootstrapping.
extension AttributeFields {
    static func cipherSuiteInfo(_ a: CipherSuiteInfoAttribute) -> [ReportField] {
        let capabilities = a.capabilityFields
        return [
            .group(
                "capabilities", "capabilities", raw: Int(a.capabilities),
                [
                    .number("ndTKSAReplayCounters", "ND-TKSA replay counters", capabilities.ndTKSAReplayCounters),
                    .number(
                        "gtkSupport", "GTK support", capabilities.gtkSupport,
                        text: "\(capabilities.gtkSupport) (\(capabilities.gtkSupportDescription))"),
                    .number("gtksaReplayCounters", "GTKSA replay counters", capabilities.gtksaReplayCounters),
                    .string(
                        "igtkCipher", "IGTK/BIGTK cipher",
                        capabilities.usesBIPGMAC256 ? "NCS-BIP-256 (BIP-GMAC-256)" : "NCS-BIP-128 (BIP-CMAC-128)"),
                ] + reserved(Int(capabilities.reservedBits))),
            .list(
                "cipherSuites", "cipher suites", item: "cipher suite",
                a.entries.map { entry in
                    [
                        .number(
                            "cipherSuiteID", "cipher suite ID", entry.suite.rawValue,
                            text: "\(entry.suite.rawValue) (\(entry.suite))"),
                        .string("cipherSuite", "cipher suite", entry.suite.description).jsonOnlyField,
                        .number("publishID", "publish ID", entry.publishID.rawValue),
                    ]
                }),
        ]
    }

    static func securityContextInfo(_ a: SecurityContextInfoAttribute) -> [ReportField] {
        [
            .list(
                "identifiers", "security context identifiers", item: "identifier",
                a.entries.map { entry in
                    [
                        .number("typeID", "type", entry.type, text: "\(entry.type) (\(entry.typeName))"),
                        .string("type", "type name", entry.typeName).jsonOnlyField,
                        .number("publishID", "publish ID", entry.publishID.rawValue),
                        .number("length", "length", entry.identifier.count),
                        .hex("identifier", "identifier", entry.identifier),
                    ]
                })
        ]
    }

    static func sharedKeyDescriptor(_ a: SharedKeyDescriptorAttribute, _ context: Context) -> [ReportField] {
        var fields: [ReportField] = [.number("publishID", "publish ID", a.publishID.rawValue)]
        do {
            fields.append(
                .group(
                    "keyDescriptor", "key descriptor",
                    keyDescriptor(try a.decodedKeyDescriptor(suite: context.cipherSuite))))
        } catch {
            fields.append(.string("keyDescriptorError", "key descriptor not decoded", error.description))
            fields.append(.hex("keyDescriptorBytes", "key descriptor bytes", a.keyDescriptor))
        }
        return fields
    }

    static func keyDescriptor(_ d: RSNKeyDescriptor) -> [ReportField] {
        let info = d.keyInformation
        return [
            .number("descriptorType", "descriptor type", d.descriptorType, text: "\(d.descriptorType) (RSN)"),
            .group(
                "keyInformation", "key information", raw: Int(info.rawValue), digits: 4,
                [
                    .number(
                        "descriptorVersion", "descriptor version", info.descriptorVersion,
                        text: info.descriptorVersion == 0 ? "0 (AKM defined)" : String(info.descriptorVersion)),
                    .flag("pairwise", "pairwise", info.contains(.pairwise)),
                    .flag("install", "install", info.contains(.install)),
                    .flag("ack", "key ack", info.contains(.ack)),
                    .flag("mic", "key MIC", info.contains(.mic)),
                    .flag("secure", "secure", info.contains(.secure)),
                    .flag("error", "error", info.contains(.error)),
                    .flag("request", "request", info.contains(.request)),
                    .flag("encryptedKeyData", "encrypted key data", info.contains(.encryptedKeyData)),
                ]),
            .number("keyLength", "key length", d.keyLength),
            .number("replayCounter", "replay counter", d.replayCounter),
            .hex("nonce", "key nonce", d.nonce),
            .hex("iv", "key IV", d.iv),
            .hex("rsc", "key RSC", d.rsc),
            .hex("mic", "key MIC (\(d.mic.count) bytes)", d.mic),
            .number("keyDataLength", "key data length", d.keyData.count),
            .hex("keyData", "key data", d.keyData),
        ]
    }

    static func deviceCapabilityExtension(_ a: DeviceCapabilityExtensionAttribute) -> [ReportField] {
        var children: [ReportField] = [
            .flag("regulatoryInfoPresent", "6 GHz regulatory info present", a.regulatoryInfoPresent)
        ]
        if let info = a.regulatoryInfo {
            children.append(
                .number(
                    "regulatoryInfo", "6 GHz regulatory info", info,
                    text: "\(info) (\(DeviceCapabilityExtensionAttribute.regulatoryInfoName(info)))"))
        }
        children += [
            .flag("pairingSetupEnabled", "pairing setup enabled", a.pairingSetupSupported),
            .flag("npkNIKCachingEnabled", "NPK/NIK caching enabled", a.npkNIKCachingSupported),
        ]
        if a.unnamedCapabilityBits != 0 {
            children.append(
                .number("otherBits", "other bits", a.unnamedCapabilityBits, hexDigits: 4))
        }
        var fields: [ReportField] = [
            .group("capabilityInfo", "capability info", raw: Int(a.capabilityInfo), digits: 4, children)
        ]
        if !a.moreCapabilityInfo.isEmpty {
            fields.append(.hex("moreCapabilityInfo", "further capability info", a.moreCapabilityInfo))
        }
        return fields
    }

    static func identityResolution(_ a: IdentityResolutionAttribute) -> [ReportField] {
        [
            .number(
                "cipherVersion", "cipher version", a.cipherVersion,
                text: a.cipherVersion == 0 ? "0 (128-bit NIK, HMAC-SHA-256)" : String(a.cipherVersion)),
            .hex("nonce", "nonce", a.nonce),
            .hex("tag", "tag", a.tag),
        ]
    }

    static func pairingBootstrapping(_ a: PairingBootstrappingAttribute) -> [ReportField] {
        let typeName = [0: "advertise", 1: "request", 2: "response"][a.type.rawValue] ?? "reserved"
        let statusName = [0: "accepted", 1: "rejected", 2: "comeback"][a.status.rawValue] ?? "reserved"
        var fields: [ReportField] = [
            .number("dialogToken", "dialog token", a.dialogToken),
            .number("type", "type", a.type.rawValue, text: "\(a.type.rawValue) (\(typeName))"),
            .number("status", "status", a.status.rawValue, text: "\(a.status.rawValue) (\(statusName))"),
            .number(
                "reasonCode", "reason code", a.reasonCode.rawValue, text: "\(a.reasonCode.rawValue) (\(a.reasonCode))"),
        ]
        if let comeback = a.comeback {
            var children: [ReportField] = []
            if let after = comeback.after {
                children.append(.number("after", "comeback after", after, text: "\(after) TU"))
            }
            children.append(.hex("cookie", "cookie", comeback.cookie))
            fields.append(.group("comeback", "comeback", children))
        }
        let methods: [(PairingBootstrappingAttribute.Methods, String, String)] = [
            (.opportunistic, "opportunistic", "opportunistic"), (.pinDisplay, "pinDisplay", "PIN display"),
            (.passphraseDisplay, "passphraseDisplay", "passphrase display"),
            (.qrDisplay, "qrDisplay", "QR code display"),
            (.nfcTag, "nfcTag", "NFC tag"), (.pinKeypad, "pinKeypad", "PIN keypad"),
            (.passphraseKeypad, "passphraseKeypad", "passphrase keypad"), (.qrScan, "qrScan", "QR code scan"),
            (.nfcReader, "nfcReader", "NFC reader"), (.serviceManaged, "serviceManaged", "service managed"),
            (.handshakeSkipped, "handshakeSkipped", "handshake skipped"),
        ]
        let named = methods.filter { a.methods.contains($0.0) }.map(\.2)
        fields.append(
            .group(
                "methods", "bootstrapping methods", raw: Int(a.methods.rawValue), digits: 4,
                text: ReportField.hexNumber(Int(a.methods.rawValue), digits: 4)
                    + " (\(named.isEmpty ? "none" : named.joined(separator: ", ")))",
                showsChildren: false, methods.map { .flag($0.1, $0.2, a.methods.contains($0.0)) }))
        return fields
    }
}
