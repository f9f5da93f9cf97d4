public import NANWire
internal import NANCrypto

/// A NAN Identity Key (NIK, 16 bytes): the secret a device gives its paired peers so they recognise it
/// through its NAN Identity Resolution attribute whatever its NMI address. Never printed.
public struct NANIdentityKey: Hashable, Sendable, CustomStringConvertible {
    /// The key bytes (16). Store only in the 0600 paired-devices file.
    public let bytes: [UInt8]

    /// Wraps 16 key bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// A fresh random NIK from libcrypto's CSPRNG.
    public static func random() throws(PairingError) -> NANIdentityKey {
        do { return NANIdentityKey(bytes: try SecureRandom.bytes(16))! } catch {
            throw PairingError(.crypto, "\(error)")
        }
    }

    /// The NIRA tag for `nonce` (8 bytes) under this key, for the device whose NMI is `nmi`
    /// (Wi-Fi Aware 4.0, NIRA cipher version 0, as hostap's `nan_crypto_derive_nira_tag` computes it):
    /// Truncate-64(HMAC-SHA-256(NIK, "NIR" ‖ NMI ‖ nonce)).
    public func tag(nmi: MACAddress, nonce: [UInt8]) throws(PairingError) -> [UInt8] {
        guard nonce.count == 8 else { throw PairingError(.malformed, "NIRA nonce of \(nonce.count) bytes") }
        do {
            return Array(try HMAC.sha256(key: bytes, message: Array("NIR".utf8) + nmi.bytes + nonce).prefix(8))
        } catch { throw PairingError(.crypto, "\(error)") }
    }

    /// A NIRA announcing this device (NMI `nmi`) with a fresh random nonce. Make a new one per NMI change
    /// (and as often as privacy requires): the same nonce and tag seen twice link the two sightings.
    public func identityResolution(nmi: MACAddress) throws(PairingError) -> IdentityResolutionAttribute {
        let nonce: [UInt8]
        do { nonce = try SecureRandom.bytes(8) } catch { throw PairingError(.crypto, "\(error)") }
        return IdentityResolutionAttribute(
            cipherVersion: 0, nonce: nonce[...], tag: try tag(nmi: nmi, nonce: nonce)[...])
    }

    /// Redacted.
    public var description: String { "NANIdentityKey(redacted)" }
}
