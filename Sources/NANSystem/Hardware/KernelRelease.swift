internal import Glibc

/// The running kernel, as `uname -r` and `uname -v` print it.
public struct KernelRelease: Sendable, Hashable {
    /// The release, e.g. `7.2.13+deb14-amd64`.
    public var release: String
    /// The build version string, e.g. `#1 SMP PREEMPT_DYNAMIC Debian 7.2.13-1`.
    public var version: String
    /// The machine, e.g. `x86_64`.
    public var machine: String

    /// Creates a value (mostly for tests).
    public init(release: String, version: String, machine: String) {
        self.release = release
        self.version = version
        self.machine = machine
    }

    /// The running kernel (`uname(2)`), or `nil` if it cannot be asked.
    public static func current() -> KernelRelease? {
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        return KernelRelease(
            release: Self.string(names.release), version: Self.string(names.version),
            machine: Self.string(names.machine))
    }

    private static func string<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
