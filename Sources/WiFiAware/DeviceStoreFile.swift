internal import FoundationEssentials
internal import NANWire

// The paired-device store's file format (version 2; version 1 had no keys and is still read):
//
// {
//   "format": "waware-devices",
//   "version": 2,
//   "identityKey": "8899aabb…",            (this machine's NIK, made on first need)
//   "devices": [
//     { "id": "6f1c2b4e-…", "name": "Kitchen speaker", "managementAddresses": ["02:00:00:00:01:00"],
//       "vendorName": "Acme", "modelName": "Speaker 2", "identityKey": "00112233…", "dateAdded": "2026-11-30T07:00:00Z",
//       "pairingKey": "…64 hex digits…", "pairingMethod": "SAE",
//       "pairingCipherSuite": "NCS-PK-PASN-256",               (optional: absent means NCS-PK-PASN-128)
//       "certificateFingerprint": "…64 hex digits…",        (optional: the pinned TLS certificate; stores
//                                                            without it, older ones included, read as before)
//       "lastSeen": "2026-12-02T01:30:00Z" }               (optional: when it was last recognised)
//   ]
// }

/// Encodes and decodes the device store's file; a file that is not a version-1 store is a `Problem`.
enum DeviceStoreFile {
    static let formatName = "waware-devices"
    static let currentVersion = 2

    /// Why a file could not be read as a device store.
    enum Problem: Error {
        /// Not JSON, not ours, or ours but with invalid contents.
        case corrupt(String)
        /// A store written by a newer waware, which this one must not touch.
        case newerVersion(Int)
    }

    static func decode(_ data: Data) throws(Problem) -> WAPairedDevice.Devices {
        try decodeStore(data).devices
    }

    /// The devices and this machine's own NIK.
    static func decodeStore(
        _ data: Data
    ) throws(Problem) -> (devices: WAPairedDevice.Devices, ownIdentity: WAPairedDevice.IdentityKey?) {
        let document: Document
        do {
            document = try JSONDecoder.storeDecoder.decode(Document.self, from: data)
        } catch {
            throw .corrupt(reason(for: error))
        }
        guard document.format == formatName else {
            throw .corrupt("it is not a waware device store (format is '\(document.format ?? "missing")')")
        }
        guard let version = document.version else {
            throw .corrupt("it has no format version")
        }
        guard version >= 1 else {
            throw .corrupt("its format version \(version) is not one waware ever wrote (versions start at 1)")
        }
        guard version <= currentVersion else {
            throw .newerVersion(version)
        }
        guard let records = document.devices else {
            throw .corrupt("it has no device list")
        }
        var devices: WAPairedDevice.Devices = [:]
        // A hand-edited store must keep names and addresses unique, as `add` and `rename` do: with two
        // devices of one name `remove NAME` finds neither, and the owner of a shared address is arbitrary.
        var names: [String: Int] = [:]
        var owners: [MACAddress: Int] = [:]
        for (index, record) in records.enumerated() {
            let device = try record.device(at: index)
            guard devices[device.id] == nil else {
                throw .corrupt("device id \(device.id) appears twice")
            }
            if let first = names[device.displayName] {
                throw .corrupt(
                    "devices \(first + 1) and \(index + 1) are both named '\(device.displayName)'; names must be unique"
                )
            }
            names[device.displayName] = index
            for address in device.managementAddresses {
                if let first = owners[address], first != index {
                    throw .corrupt(
                        "devices \(first + 1) and \(index + 1) both have the address \(address); an address "
                            + "belongs to one device")
                }
                owners[address] = index
            }
            devices[device.id] = device
        }
        var own: WAPairedDevice.IdentityKey?
        if let text = document.identityKey {
            guard let bytes = bytes(fromHex: text), let key = try? WAPairedDevice.IdentityKey(bytes: bytes) else {
                throw .corrupt("its own identity key is invalid")
            }
            own = key
        }
        return (devices, own)
    }

    static func encode(_ devices: WAPairedDevice.Devices, ownIdentity: WAPairedDevice.IdentityKey? = nil) -> Data {
        let records = devices.values.sorted { $0.id < $1.id }.map(Record.init)
        let document = Document(
            format: formatName, version: currentVersion, identityKey: ownIdentity.map { hexText($0.bytes) },
            devices: records)
        // Encoding plain strings, arrays and dates cannot fail; an empty store is the fallback of last resort.
        return (try? JSONEncoder.storeEncoder.encode(document)) ?? Data()
    }

    private static func reason(for error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            let place = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(
                separator: ".")
            return "a value has the wrong type at \(place)"
        case DecodingError.keyNotFound(let key, _):
            return "a required field '\(key.stringValue)' is missing"
        default:
            return "it cannot be decoded (\(error))"
        }
    }

    private struct Document: Codable {
        var format: String?
        var version: Int?
        var identityKey: String?
        var devices: [Record]?
    }

    private struct Record: Codable {
        var id: String
        var name: String
        var managementAddresses: [String]
        var vendorName: String?
        var modelName: String?
        var identityKey: String?
        var identityKeyExpires: Date?
        var dateAdded: Date
        var pairingKey: String?
        var pairingMethod: String?
        var pairingCipherSuite: String?
        var certificateFingerprint: String?
        var lastSeen: Date?

        init(_ device: WAPairedDevice) {
            id = device.id.description
            name = device.displayName
            managementAddresses = device.managementAddresses.map(peerAddressText)
            vendorName = device.pairingInfo?.vendorName
            modelName = device.pairingInfo?.modelName
            identityKey = device.identityKey.map { hexText($0.bytes) }
            identityKeyExpires = device.identityKey == nil ? nil : device.identityKeyExpiry
            dateAdded = device.dateAdded
            pairingKey = device.pairingKey.map { hexText($0.bytes) }
            pairingMethod = device.pairingKey?.method.rawValue
            pairingCipherSuite = device.pairingKey.flatMap {
                $0.cipherSuite == .ncsPKPASN128 ? nil : $0.cipherSuite.rawValue
            }
            certificateFingerprint = device.certificateFingerprint?.description
            lastSeen = device.dateLastSeen
        }

        func device(at index: Int) throws(Problem) -> WAPairedDevice {
            let place = "device \(index + 1)"
            guard let id = WAPairedDevice.ID(id) else {
                throw .corrupt("\(place) has an invalid id '\(id)'")
            }
            do {
                try WAPairedDevice.validateName(name)
            } catch {
                throw .corrupt("\(place): \(error.message)")
            }
            var addresses: [MACAddress] = []
            for text in managementAddresses {
                guard let address = parsePeerAddress(text), !isGroupAddress(address) else {
                    throw .corrupt("\(place) has an invalid management address '\(text)'")
                }
                addresses.append(address)
            }
            guard !addresses.isEmpty else {
                throw .corrupt("\(place) has no management address")
            }
            var pairingInfo: WAPairedDevice.PairingInfo?
            if vendorName != nil || modelName != nil {
                do {
                    pairingInfo = try WAPairedDevice.PairingInfo(vendorName: vendorName, modelName: modelName)
                } catch {
                    throw .corrupt("\(place): \(error.message)")
                }
            }
            var key: WAPairedDevice.IdentityKey?
            if let identityKey {
                guard let bytes = bytes(fromHex: identityKey),
                    let parsed = try? WAPairedDevice.IdentityKey(bytes: bytes)
                else {
                    throw .corrupt("\(place) has an invalid identity key")
                }
                key = parsed
            }
            var npk: WAPairedDevice.PairingKey?
            if pairingKey != nil || pairingMethod != nil || pairingCipherSuite != nil {
                let suite = pairingCipherSuite.map(WACipherSuite.init(rawValue:)) ?? .ncsPKPASN128
                guard let pairingKey, let bytes = bytes(fromHex: pairingKey),
                    let method = pairingMethod.flatMap(WAPairedDevice.PairingKey.Method.init(rawValue:)),
                    let suite, suite.isPairing,
                    let parsed = try? WAPairedDevice.PairingKey(bytes: bytes, method: method, cipherSuite: suite)
                else {
                    throw .corrupt("\(place) has an invalid pairing key, method or cipher suite")
                }
                npk = parsed
            }
            var pin: WACertificateFingerprint?
            if let certificateFingerprint {
                guard let parsed = WACertificateFingerprint(hex: certificateFingerprint) else {
                    throw .corrupt("\(place) has an invalid certificate fingerprint (64 hex digits expected)")
                }
                pin = parsed
            }
            return WAPairedDevice(
                id: id, displayName: name, pairingInfo: pairingInfo, managementAddresses: addresses,
                identityKey: key, dateAdded: dateAdded, pairingKey: npk, certificateFingerprint: pin,
                dateLastSeen: lastSeen,
                identityKeyExpiry: key == nil ? nil : identityKeyExpires)
        }
    }
}

extension JSONEncoder {
    /// Pretty, stable output with ISO 8601 dates, so the file reads well and diffs cleanly.
    fileprivate static var storeEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    fileprivate static var storeDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
