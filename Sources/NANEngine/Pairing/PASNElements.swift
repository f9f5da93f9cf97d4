public import NANWire

/// The AKM of a NAN pairing's PASN exchange, a suite type under the IEEE OUI 00-0F-AC: SAE (8) for PIN
/// and passphrase bootstrapping, PASN (21) for opportunistic pairing. Pairing verification reuses the
/// AKM the pairing was set up with.
public struct PairingAKM: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The suite type.
    public let rawValue: UInt8
    /// Creates an AKM from its suite type.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// SAE (00-0F-AC:8).
    public static let sae = PairingAKM(rawValue: 8)
    /// PASN without a base AKM (00-0F-AC:21).
    public static let pasn = PairingAKM(rawValue: 21)
    /// `SAE`, `PASN` or the number.
    public var description: String { self == .sae ? "SAE" : self == .pasn ? "PASN" : "AKM \(rawValue)" }
}

/// The RSN element of a PASN Authentication frame as Wi-Fi Aware pairing sends it (IEEE 802.11-2024
/// §9.4.2.23, the layout hostap's `wpa_pasn_add_rsne` writes): version 1, group data cipher "no group
/// addressed" (00-0F-AC:7), one pairwise cipher (CCMP-128, 00-0F-AC:4, or GCMP-256, 00-0F-AC:9, as the
/// pairing cipher suite says), one AKM, RSN capabilities with
/// MFPC and MFPR, a PMKID count (0 or 1) and PMKID, group management cipher "no group addressed".
struct PASNRSNElement: Hashable, Sendable {
    static let ieeeOUI: [UInt8] = [0x00, 0x0F, 0xAC]
    static let noGroupAddressed: UInt8 = 7
    static let ccmp128: UInt8 = 4
    static let gcmp256: UInt8 = 9
    static let capabilities: UInt16 = 0x00C0

    var akm: PairingAKM
    var pmkid: [UInt8]?
    /// The pairwise cipher suite type (4 or 9).
    var cipher: UInt8 = ccmp128

    /// The whole element (ID 48).
    func element() -> InformationElement {
        var w = ByteWriter(capacity: 44)
        w.writeLE16(1)
        w.writeBytes(Self.ieeeOUI + [Self.noGroupAddressed])
        w.writeLE16(1)
        w.writeBytes(Self.ieeeOUI + [cipher])
        w.writeLE16(1)
        w.writeBytes(Self.ieeeOUI + [akm.rawValue])
        w.writeLE16(Self.capabilities)
        if let pmkid {
            w.writeLE16(1)
            w.writeBytes(pmkid)
        } else {
            w.writeLE16(0)
        }
        w.writeBytes(Self.ieeeOUI + [Self.noGroupAddressed])
        return InformationElement(id: PASNAuthenticationFrame.ElementID.rsn, body: w.bytes[...])
    }

    /// An RSNE for `akm`, `pmkid` and the pairwise cipher `cipher`.
    init(akm: PairingAKM, pmkid: [UInt8]?, cipher: UInt8 = ccmp128) {
        self.akm = akm; self.pmkid = pmkid; self.cipher = cipher
    }

    /// Decodes an RSNE body; refuses anything but one pairwise cipher (CCMP-128 or GCMP-256) and one AKM,
    /// both under 00-0F-AC, with MFP required. Total: typed errors.
    init(decodingBody body: ArraySlice<UInt8>) throws(PairingError) {
        do {
            var r = ByteReader(body)
            guard try r.readLE16("RSNE version") == 1 else { throw PairingError(.malformed, "RSNE: version is not 1") }
            _ = try r.readBytes(4, "RSNE group cipher")
            guard try r.readLE16("RSNE pairwise count") == 1 else {
                throw PairingError(.malformed, "RSNE: pairing needs exactly one pairwise cipher")
            }
            let pairwise = Array(try r.readBytes(4, "RSNE pairwise cipher"))
            guard pairwise.prefix(3).elementsEqual(Self.ieeeOUI),
                pairwise[3] == Self.ccmp128 || pairwise[3] == Self.gcmp256
            else {
                throw PairingError(.malformed, "RSNE: pairing needs CCMP-128 or GCMP-256 as pairwise cipher")
            }
            cipher = pairwise[3]
            guard try r.readLE16("RSNE AKM count") == 1 else {
                throw PairingError(.malformed, "RSNE: pairing needs exactly one AKM")
            }
            let suite = Array(try r.readBytes(4, "RSNE AKM"))
            guard suite.prefix(3).elementsEqual(Self.ieeeOUI) else {
                throw PairingError(.malformed, "RSNE: AKM outside 00-0F-AC")
            }
            akm = PairingAKM(rawValue: suite[3])
            let capabilities = try r.readLE16("RSNE capabilities")
            guard capabilities & 0x00C0 == 0x00C0 else {
                throw PairingError(.malformed, "RSNE: PASN requires MFPC and MFPR")
            }
            pmkid = nil
            if !r.isAtEnd {
                let count = Int(try r.readLE16("RSNE PMKID count"))
                guard count <= 1 else { throw PairingError(.malformed, "RSNE: \(count) PMKIDs") }
                if count == 1 { pmkid = Array(try r.readBytes(16, "RSNE PMKID")) }
            }
        } catch let error as NANWireError {
            throw PairingError(.malformed, "\(error)")
        } catch let error as PairingError {
            throw error
        } catch {
            throw PairingError(.malformed, "RSNE")
        }
    }
}

/// The other elements Wi-Fi Aware pairing puts in PASN frames.
enum PASNPairingElements {
    /// RSNXE (244) with a 2-byte capability field (Wi-Fi Aware 4.0 Table 26): field length 1 in bits
    /// 0–3, SAE hash-to-element (bit 5) when the AKM is SAE. Not sent in opportunistic setup.
    static func rsnExtension(akm: PairingAKM) -> InformationElement {
        InformationElement(
            id: PASNAuthenticationFrame.ElementID.rsnExtension, body: [akm == .sae ? 0x21 : 0x01, 0x00][...])
    }

    /// Supported Groups (extension 161): the pairing's group (19 or 20) only. The responder sends it in frame 2.
    static func supportedGroups(_ group: UInt16) -> InformationElement {
        InformationElement(
            id: PASNAuthenticationFrame.ElementID.extensionElement,
            body: [161, UInt8(group & 0xFF), UInt8(group >> 8)][...])
    }

    /// Wrapped Data (extension 8). Pairing's SAE data stays below 255 bytes, so no fragments.
    static func wrappedData(_ data: [UInt8]) throws(PairingError) -> InformationElement {
        guard data.count <= 254 else { throw PairingError(.malformed, "wrapped data of \(data.count) bytes") }
        return InformationElement(
            id: PASNAuthenticationFrame.ElementID.extensionElement,
            body: ([PASNAuthenticationFrame.ElementID.wrappedData] + data)[...])
    }

    /// The NAN element: vendor specific (221), Wi-Fi Alliance OUI, type 0x13, then NAN attributes
    /// (setup: CSIA and DCEA; verification: CSIA and NIRA).
    static let nanElementHeader: [UInt8] = [0x50, 0x6F, 0x9A, 0x13]

    static func nanElement(_ attributes: [UInt8]) throws(PairingError) -> InformationElement {
        guard attributes.count + 4 <= 255 else {
            throw PairingError(.malformed, "NAN element of \(attributes.count + 4) bytes")
        }
        return InformationElement(id: 221, body: (nanElementHeader + attributes)[...])
    }

    /// The attributes of the NAN element in `frame`, empty when it has none.
    static func nanAttributes(in frame: PASNAuthenticationFrame) -> [UInt8] {
        guard let body = frame.elements.first(where: { $0.id == 221 && $0.body.starts(with: nanElementHeader) })?.body
        else { return [] }
        return Array(body.dropFirst(4))
    }

    /// The first attribute of type `T` among `attributes`, nil when absent; a malformed one is an error.
    static func attribute<T: NANAttributeBody>(_ type: T.Type, in attributes: [UInt8]) throws(PairingError) -> T? {
        do {
            var iterator = NANAttributeIterator(ByteReader(attributes))
            while let raw = try iterator.next() {
                guard raw.id == T.attributeID else { continue }
                var reader = ByteReader(raw.body)
                let value = try T(decodingBody: &reader)
                return value
            }
            return nil
        } catch {
            throw PairingError(.malformed, "NAN element in PASN frame: \(error)")
        }
    }
}
