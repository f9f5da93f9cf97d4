public import NANCrypto

extension TLSStream {
    /// Keying material exported from the stream's TLS session (``TLSSession/exportKeyingMaterial(label:context:count:)``):
    /// the keys of a connection's datagrams.
    public func exportKeyingMaterial(label: String, context: [UInt8], count: Int) throws(TLSError) -> [UInt8] {
        try session.exportKeyingMaterial(label: label, context: context, count: count)
    }
}
