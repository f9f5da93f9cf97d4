import Glibc
@testable import NANSystem
import Testing

/// A fresh, empty folder under /tmp, removed (with its files) when the test ends.
private func withTemporaryFolder(_ body: (String) throws -> Void) throws {
    var template = Array("/tmp/waware-privatefile-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
        Issue.record("mkdtemp failed: errno \(errno)")
        return
    }
    let folder = String(cString: made)
    defer { _ = system("rm -rf '\(folder)'") }
    try body(folder)
}

private func mode(of path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

private func entries(of folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

@Suite struct PrivateFileTests {
    @Test func temporaryFileIsOwnerOnlyBeforeItBecomesTheTarget() throws {
        try withTemporaryFolder { folder in
            let target = folder + "/devices.json"
            var temporaryMode: mode_t?
            var temporaryPath = ""
            try PrivateFile.replace(at: target, with: Array("secret".utf8)) { temporary in
                temporaryPath = temporary
                temporaryMode = mode(of: temporary)
            }
            #expect(temporaryPath.hasPrefix(folder + "/.devices.json."))
            #expect(temporaryMode == 0o600)
            #expect(mode(of: target) == 0o600)
            #expect(fileContents(atPath: target) == Array("secret".utf8))
            #expect(entries(of: folder) == ["devices.json"])
        }
    }

    @Test func replacingAWorldReadableFileLeavesAnOwnerOnlyFile() throws {
        try withTemporaryFolder { folder in
            let target = folder + "/devices.json"
            let file = try #require(fopen(target, "wb"))
            fclose(file)
            chmod(target, 0o644)
            try PrivateFile.replace(at: target, with: [1, 2, 3])
            #expect(mode(of: target) == 0o600)
            #expect(fileContents(atPath: target) == [1, 2, 3])
        }
    }

    @Test func targetKeepsItsOldContentsUntilTheRename() throws {
        try withTemporaryFolder { folder in
            let target = folder + "/store"
            try PrivateFile.replace(at: target, with: Array("old".utf8))
            let big = [UInt8](repeating: 0x5a, count: 200_000)
            var seenBeforeRename: [UInt8]?
            try PrivateFile.replace(at: target, with: big) { _ in seenBeforeRename = fileContents(atPath: target) }
            #expect(seenBeforeRename == Array("old".utf8))
            #expect(fileContents(atPath: target) == big)
            #expect(entries(of: folder) == ["store"])
        }
    }

    @Test func missingFolderIsATypedErrorNamingTheFolder() throws {
        try withTemporaryFolder { folder in
            let error = #expect(throws: FileError.self) {
                try PrivateFile.replace(at: folder + "/absent/devices.json", with: [1])
            }
            #expect(error?.errno == Errno(rawValue: ENOENT))
            #expect(error?.path == folder + "/absent")
            #expect(error?.isPermissionDenied == false)
            #expect(
                error?.description
                    == "cannot create a temporary file in \(folder)/absent: No such file or directory (ENOENT)")
        }
    }

    @Test func folderThatIsAFileIsATypedError() throws {
        try withTemporaryFolder { folder in
            try PrivateFile.replace(at: folder + "/plain", with: [1])
            let error = #expect(throws: FileError.self) {
                try PrivateFile.replace(at: folder + "/plain/devices.json", with: [1])
            }
            #expect(error?.errno == Errno(rawValue: ENOTDIR))
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root ignores folder permissions"))
    func readOnlyFolderIsPermissionDeniedAndLeavesNothingBehind() throws {
        try withTemporaryFolder { folder in
            chmod(folder, 0o500)
            defer { chmod(folder, 0o700) }
            let error = #expect(throws: FileError.self) {
                try PrivateFile.replace(at: folder + "/devices.json", with: [1])
            }
            #expect(error?.errno == Errno(rawValue: EACCES))
            #expect(error?.isPermissionDenied == true)
            #expect(entries(of: folder).isEmpty)
        }
    }

    @Test func renameOntoAFolderFailsAndRemovesTheTemporaryFile() throws {
        try withTemporaryFolder { folder in
            let target = folder + "/taken"
            #expect(mkdir(target, 0o700) == 0)
            let error = #expect(throws: FileError.self) {
                try PrivateFile.replace(at: target, with: [1])
            }
            #expect(error?.errno == Errno(rawValue: EISDIR))
            #expect(entries(of: folder) == ["taken"])
        }
    }

    @Test func folderOfAPathIsEverythingBeforeTheLastSlash() {
        #expect(PrivateFile.folderPath(of: "/var/lib/waware/devices.json") == "/var/lib/waware")
        #expect(PrivateFile.folderPath(of: "/devices.json") == "/")
        #expect(PrivateFile.folderPath(of: "devices.json") == ".")
    }

    @Test func exclusiveLockIsTakenAndReleased() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/lock"
            let first = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            let second = open(path, O_RDWR | O_CLOEXEC)
            defer { close(first); close(second) }
            try AdvisoryLock.lockExclusively(first, path: path)
            #expect(flock(second, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
            AdvisoryLock.unlock(first)
            #expect(flock(second, LOCK_EX | LOCK_NB) == 0)
        }
    }

    @Test func lockingAClosedDescriptorIsATypedError() {
        let error = #expect(throws: FileError.self) { try AdvisoryLock.lockExclusively(-1, path: "/nowhere") }
        #expect(error?.errno == Errno(rawValue: EBADF))
        #expect(error?.path == "/nowhere")
    }

    /// The effective user id as the kernel reports it in /proc/self/status ("Uid: real effective saved fs"),
    /// a source independent of the geteuid() call the implementation makes.
    private static func effectiveUserIDFromProc() -> UInt32? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            guard text.hasPrefix("Uid:") else { continue }
            let fields = text.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            if fields.count >= 2, let effective = UInt32(fields[1]) { return effective }
        }
        return nil
    }

    @Test func processIdentityIsTheEffectiveUserTheKernelReports() throws {
        let effective = try #require(Self.effectiveUserIDFromProc(), "no Uid: line in /proc/self/status")
        #expect(ProcessIdentity.effectiveUserID == effective)
        #expect(ProcessIdentity.isRoot == (effective == 0))
    }
}
