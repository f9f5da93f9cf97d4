public import NANWire

extension ServiceID {
    /// Derives a NAN service ID: the first 6 bytes of SHA-256 over the service name in lower case
    /// (ASCII lower-casing, as hostap's `nan_de_derive_service_id` does), so that IDs match other stacks.
    ///
    /// Throws only if libcrypto fails, which does not happen for SHA-256 in practice.
    public init(serviceName: String) throws(CryptoError) {
        let lowered = serviceName.utf8.map { byte in (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
        let digest = try Digest.sha256(lowered)
        self.init(digest[0], digest[1], digest[2], digest[3], digest[4], digest[5])
    }
}
