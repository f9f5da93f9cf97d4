import Glibc
import NANCrypto
import NANSystem
import Testing

/// The identity file: made on first use with mode 0600, reloaded identical, refused when others may read it.
@Suite struct TLSIdentityFileTests {
    static func temporaryFolder() -> String {
        var template = Array("/tmp/waware-tls-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    @Test func identityIsCreatedWithMode0600AndReloadedIdentical() throws {
        let path = Self.temporaryFolder() + "/identity.pem"
        let first = try TLSIdentityFile.loadOrCreate(at: path, commonName: "waware test")
        #expect(first.created)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        let second = try TLSIdentityFile.loadOrCreate(at: path, commonName: "other")
        #expect(!second.created)
        #expect(second.identity.certificate == first.identity.certificate)
        #expect(try second.identity.pemEncoded() == first.identity.pemEncoded())
    }

    @Test func identityReadableByOthersIsRefused() throws {
        let path = Self.temporaryFolder() + "/identity.pem"
        _ = try TLSIdentityFile.loadOrCreate(at: path, commonName: "x")
        #expect(chmod(path, 0o644) == 0)
        #expect(throws: FileError.self) { try TLSIdentityFile.load(at: path) }
    }

    @Test func fileThatIsNotAnIdentityIsRefusedAndKept() throws {
        let path = Self.temporaryFolder() + "/identity.pem"
        try PrivateFile.replace(at: path, with: Array("hello".utf8))
        #expect(throws: FileError.self) { try TLSIdentityFile.loadOrCreate(at: path, commonName: "x") }
        #expect(try FileContents.readRegularFile(at: path, limit: 100, what: "test") == Array("hello".utf8))
    }
}
