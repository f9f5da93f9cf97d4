internal import FoundationEssentials
internal import NANSystem
internal import Synchronization

/// The rule "a service is published (or subscribed) once per device": a lease per (adapter, role, service)
/// held for a session's lifetime.
///
/// Within this process a set of held keys answers at once; between processes an exclusive, non-blocking
/// `flock` on `<runtime dir>/<adapter>.<role>.<service>.lock` does (the kernel drops it if the process dies,
/// so a crash never leaves a stale lease). The lock files are kept, never deleted, like the store's lock.
final class ServiceLease: Sendable {
    /// Publish or subscribe.
    enum Role: String, Sendable {
        case publish, subscribe
    }

    /// The lock files held by this process.
    private static let held = Mutex<Set<String>>([])

    private let key: String
    private let descriptor: Mutex<Int32?>

    private init(key: String, descriptor: Int32) {
        self.key = key
        self.descriptor = Mutex(descriptor)
    }

    /// The runtime folder: `$XDG_RUNTIME_DIR/waware`, or `/run/waware` without it.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent("waware", isDirectory: true)
        }
        return URL(fileURLWithPath: "/run/waware", isDirectory: true)
    }

    /// Takes the lease for `service` in `role` on `adapter`.
    ///
    /// - Throws: ``WAError/Code/serviceAlreadyPublishing`` or ``WAError/Code/serviceAlreadySubscribing``
    ///   if a session here or in another process holds it; a file error if the runtime folder is unusable.
    static func acquire(
        adapter: String, role: Role, service: WAServiceName, directory: URL
    ) throws(WAError) -> ServiceLease {
        // Both ends hash the lower-cased name: names differing in case are one service on the air.
        let file = directory.appendingPathComponent("\(adapter).\(role.rawValue).\(service.rawValue.lowercased()).lock")
        let key = file.standardizedFileURL.path
        let inserted = held.withLock { $0.insert(key).inserted }
        guard inserted else { throw alreadyHeld(role, service: service, adapter: adapter, elsewhere: false) }
        do {
            let descriptor = try lockFile(file, role: role, service: service, adapter: adapter)
            return ServiceLease(key: key, descriptor: descriptor)
        } catch {
            _ = held.withLock { $0.remove(key) }
            throw error
        }
    }

    /// Gives the lease back. Calling it again does nothing.
    func release() {
        guard
            let fd = descriptor.withLock({ value -> Int32? in
                defer { value = nil }
                return value
            })
        else { return }
        AdvisoryLock.unlock(fd)
        AdvisoryLock.close(fd)
        _ = Self.held.withLock { $0.remove(key) }
    }

    deinit { release() }

    private static func lockFile(
        _ url: URL, role: Role, service: WAServiceName, adapter: String
    ) throws(WAError) -> Int32 {
        let folder = url.deletingLastPathComponent()
        do throws(FileError) {
            try FileSystem.createFolder(at: folder.path, mode: 0o755)
        } catch {
            throw WAError.file(error, action: "create the runtime folder", path: folder.path)
        }
        // Close-on-exec: a child process must not inherit the lease and keep it after this process dies.
        let descriptor: Int32
        do throws(FileError) {
            descriptor = try AdvisoryLock.openLockFile(at: url.path, mode: 0o644)
        } catch {
            throw WAError.file(error, action: "open the service lock", path: url.path)
        }
        let locked: Bool
        do throws(FileError) {
            locked = try AdvisoryLock.tryLockExclusively(descriptor, path: url.path)
        } catch {
            AdvisoryLock.close(descriptor)
            throw WAError.file(error, action: "lock the service lock", path: url.path)
        }
        guard locked else {
            AdvisoryLock.close(descriptor)
            throw alreadyHeld(role, service: service, adapter: adapter, elsewhere: true)
        }
        return descriptor
    }

    private static func alreadyHeld(_ role: Role, service: WAServiceName, adapter: String, elsewhere: Bool) -> WAError {
        let who = elsewhere ? "another process" : "this process"
        switch role {
        case .publish:
            return WAError(
                .serviceAlreadyPublishing,
                message: "\(service) is already published on \(adapter) by \(who); stop that publisher first")
        case .subscribe:
            return WAError(
                .serviceAlreadySubscribing,
                message: "\(service) is already subscribed to on \(adapter) by \(who); stop that subscriber first")
        }
    }
}
