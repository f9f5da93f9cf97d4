internal import CSSL

extension TLSSession {
    /// Keying material exported from the established session (RFC 8446 §7.5, `SSL_export_keying_material`):
    /// `count` bytes that both ends derive alike from the session's secrets, the `label` and the `context`,
    /// and nobody else can. Used to key a connection's datagrams.
    ///
    /// - Throws: ``TLSError/Code-swift.struct/notEstablished`` before the handshake finished or after a
    ///   failure; ``TLSError/Code-swift.struct/library`` if libssl refuses.
    public func exportKeyingMaterial(label: String, context: [UInt8], count: Int) throws(TLSError) -> [UInt8] {
        switch state {
        case .established, .closed: break
        case .handshaking, .failed: throw TLSError(.notEstablished, "keying material before the handshake finished")
        }
        guard (1...1024).contains(count) else { throw TLSError(.library, "keying material of \(count) bytes") }
        return try engine.exportKeyingMaterial(label: label, context: context, count: count)
    }
}

extension TLSEngine {
    /// `SSL_export_keying_material` with a context (always used, even when empty).
    func exportKeyingMaterial(label: String, context: [UInt8], count: Int) throws(TLSError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let labelBytes = Array(label.utf8)
        let contextBytes = context.isEmpty ? [0] : context
        let result = out.withUnsafeMutableBufferPointer { output in
            labelBytes.withUnsafeBufferPointer { labelPointer in
                contextBytes.withUnsafeBufferPointer { contextPointer in
                    labelPointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: labelBytes.count) { name in
                        SSL_export_keying_material(
                            ssl, output.baseAddress, count, name, labelBytes.count,
                            contextPointer.baseAddress, context.count, 1)
                    }
                }
            }
        }
        guard result == 1 else { throw TLSError(.library, "SSL_export_keying_material failed") }
        return out
    }
}
