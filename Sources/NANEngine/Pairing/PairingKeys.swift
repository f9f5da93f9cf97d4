public import NANWire
internal import NANCrypto

/// The keys one successful PASN pairing exchange leaves (Wi-Fi Aware 4.0 §7.6.4, as hostap's
/// `nan_crypto.c` derives them for NCS-PK-PASN-128 and -256): the NPK to cache (SAE's PMK, the
/// opportunistic NPK from the KDK, or the cached NPK a verification used), the KEK that wraps the NIKs,
/// and the ND-PMK a paired data path starts from. Each KDF is KDF-H over the KDK with H the suite's hash
/// (SHA-256 for NCS-PK-PASN-128, SHA-384 for NCS-PK-PASN-256). Never printed.
public struct PairingKeys: Sendable, CustomStringConvertible {
    /// The NAN pairing key (32 bytes): kept per peer in the paired-devices file.
    public let npk: [UInt8]
    /// The AKM the NPK comes from (verification must use the same).
    public let akm: PairingAKM
    /// The pairing's cipher suite (verification and the data paths it keys use the same).
    public let suite: NDPCipherSuite
    /// NM-KEK = KDF-H(KDK, "NAN Management KEK Derivation", initiator NMI ‖ responder NMI): the suite's
    /// KEK length, 16 bytes (NCS-PK-PASN-128) or 32 (NCS-PK-PASN-256).
    public let kek: [UInt8]
    /// ND-PMK = KDF-H-256(KDK, "NDP PMK Derivation", initiator NMI ‖ responder NMI), 32 bytes.
    public let ndPMK: [UInt8]
    /// The NM-TK: the PASN TK of this exchange (16 bytes for CCMP-128, 32 for GCMP-256), which both sides
    /// install as the pairwise key of the peer's NMI station so that later unicast SDFs and NAFs travel
    /// protected (category 9), as wpa_supplicant 2.12 does after every pairing setup or verification. Empty
    /// when the keys were made without a PASN exchange (tests).
    public let tk: [UInt8]

    /// Derives KEK and ND-PMK (and, for opportunistic pairing, the 32-byte NPK) from the PASN KDK; `tk` is the
    /// PASN TK, kept as the NM-TK.
    init(
        kdk: [UInt8], akm: PairingAKM, suite: NDPCipherSuite = .pk128, npk givenNPK: [UInt8]?,
        initiator: MACAddress, responder: MACAddress, tk: [UInt8] = []
    ) throws(PairingError) {
        let context = initiator.bytes + responder.bytes
        let hash = suite.hash
        do {
            kek = try IEEE80211KDF.derive(
                hash, key: kdk, label: "NAN Management KEK Derivation", context: context, length: suite.kekLength)
            ndPMK = try IEEE80211KDF.derive(hash, key: kdk, label: "NDP PMK Derivation", context: context, length: 32)
            npk =
                try givenNPK
                ?? IEEE80211KDF.derive(
                    hash, key: kdk, label: "NAN Opportunistic NPK Derivation", context: context, length: 32)
        } catch { throw PairingError(.crypto, "pairing keys: \(error)") }
        self.akm = akm
        self.suite = suite
        self.tk = tk
    }

    /// Redacted.
    public var description: String { "PairingKeys(\(akm), \(suite), redacted)" }
}

/// The NIK key data each side sends after pairing setup (Wi-Fi Aware 4.0 §7.6.4 and Table 126): a NIK
/// KDE (cipher version 0, the 16-byte NIK) and a Key Lifetime KDE (key bitmap bit 3 = NIK, lifetime in
/// seconds), padded with 0xDD and zeros to a multiple of 8 and AES-key-wrapped under the NM-KEK; it
/// travels in a Shared Key Descriptor attribute (``NIKKeyDescriptor``) of an SDF follow-up.
public enum NIKKeyData {
    static let kdeOUI: [UInt8] = [0x50, 0x6F, 0x9A]
    static let nikKDE: UInt8 = 36
    static let lifetimeKDE: UInt8 = 37
    static let nikLifetimeBit: UInt16 = 1 << 3

    /// The wrapped key data announcing `nik`, valid for `lifetime` seconds.
    public static func wrap(_ nik: NANIdentityKey, lifetime: UInt32, kek: [UInt8]) throws(PairingError) -> [UInt8] {
        var plain: [UInt8] = [0xDD, 4 + 17] + kdeOUI + [nikKDE, 0x00] + nik.bytes
        plain += [0xDD, 4 + 6] + kdeOUI + [lifetimeKDE, UInt8(nikLifetimeBit & 0xFF), UInt8(nikLifetimeBit >> 8)]
        plain += [
            UInt8(lifetime >> 24), UInt8((lifetime >> 16) & 0xFF), UInt8((lifetime >> 8) & 0xFF),
            UInt8(lifetime & 0xFF),
        ]
        if plain.count % 8 != 0 {
            plain += [0xDD] + [UInt8](repeating: 0, count: 7 - plain.count % 8)
        }
        do { return try AESKeyWrap.wrap(plain, kek: kek) } catch {
            throw PairingError(.crypto, "NIK key data: \(error)")
        }
    }

    /// The peer's NIK and its lifetime (nil when no Key Lifetime KDE names the NIK) from wrapped key
    /// data. A wrong KEK or altered data is ``PairingError/Code/crypto``; a missing or malformed NIK KDE
    /// is ``PairingError/Code/malformed``.
    public static func unwrap(
        _ wrapped: [UInt8], kek: [UInt8]
    ) throws(PairingError) -> (nik: NANIdentityKey, lifetime: UInt32?) {
        let plain: [UInt8]
        do { plain = try AESKeyWrap.unwrap(wrapped, kek: kek) } catch {
            throw PairingError(.crypto, "NIK key data: \(error)")
        }
        var nik: NANIdentityKey?
        var lifetime: UInt32?
        var index = 0
        while index + 2 <= plain.count {
            let id = plain[index], length = Int(plain[index + 1])
            if id == 0xDD, length == 0 { break }  // padding
            guard index + 2 + length <= plain.count else {
                throw PairingError(.malformed, "NIK key data: KDE overruns the data")
            }
            let body = Array(plain[(index + 2)..<(index + 2 + length)])
            index += 2 + length
            guard id == 0xDD, body.count >= 4, Array(body.prefix(3)) == kdeOUI else { continue }
            switch body[3] {
            case nikKDE:
                guard body.count == 4 + 17, body[4] == 0 else {
                    throw PairingError(.malformed, "NIK KDE: cipher version or length")
                }
                nik = NANIdentityKey(bytes: Array(body[5...]))
            case lifetimeKDE:
                guard body.count == 4 + 6 else {
                    throw PairingError(.malformed, "Key Lifetime KDE of \(body.count) bytes")
                }
                let bitmap = UInt16(body[4]) | UInt16(body[5]) << 8
                if bitmap & nikLifetimeBit != 0 {
                    lifetime = body[6...9].reduce(0) { $0 << 8 | UInt32($1) }
                }
            default:
                continue
            }
        }
        guard let nik else { throw PairingError(.malformed, "NIK key data: no NIK KDE") }
        return (nik, lifetime)
    }
}

/// The RSNA key descriptor of a Shared Key Descriptor attribute carrying NIK key data, laid out as
/// hostap's `nan_send_nik` writes it: descriptor type 2, key information (pairwise, ack, encrypted key
/// data), key length (the pairing cipher's: 16 for CCMP-128, 32 for GCMP-256), replay counter, nonce, IV,
/// RSC and reserved fields zero (no MIC field), key data length (2, big-endian), the wrapped key data.
public enum NIKKeyDescriptor {
    static let descriptorType: UInt8 = 2
    static let keyInformation: UInt16 = (1 << 3) | (1 << 7) | (1 << 12)
    static let zeroFields = 8 + 32 + 16 + 8 + 8

    /// The attribute for `publishID` with `wrappedKeyData`; `keyLength` is the pairing cipher's key length
    /// (16 on NCS-PK-PASN-128, 32 on -256), as wpa_supplicant 2.12 fills it.
    public static func attribute(
        publishID: InstanceID, wrappedKeyData: [UInt8], keyLength: UInt16 = 16
    ) -> SharedKeyDescriptorAttribute {
        var w = ByteWriter(capacity: 128)
        w.writeU8(descriptorType)
        w.writeBE16(keyInformation)
        w.writeBE16(keyLength)
        w.writeBytes([UInt8](repeating: 0, count: zeroFields))
        w.writeBE16(UInt16(wrappedKeyData.count))
        w.writeBytes(wrappedKeyData)
        return SharedKeyDescriptorAttribute(publishID: publishID, keyDescriptor: w.bytes[...])
    }

    /// The wrapped key data of `attribute`; total, a typed error for anything else.
    public static func wrappedKeyData(of attribute: SharedKeyDescriptorAttribute) throws(PairingError) -> [UInt8] {
        do {
            var r = ByteReader(attribute.keyDescriptor)
            guard try r.readU8("key descriptor type") == descriptorType else {
                throw PairingError(.malformed, "NIK key descriptor: type")
            }
            guard try r.readBE16("key information") & (1 << 12) != 0 else {
                throw PairingError(.malformed, "NIK key descriptor: key data not encrypted")
            }
            _ = try r.readBytes(2 + zeroFields, "key descriptor fields")
            let length = Int(try r.readBE16("key data length"))
            let data = Array(try r.readBytes(length, "key data"))
            return data
        } catch let error as PairingError {
            throw error
        } catch {
            throw PairingError(.malformed, "NIK key descriptor: \(error)")
        }
    }
}
