internal import Glibc

/// Who the current process runs as.
public enum ProcessIdentity {
    /// The effective user id (`geteuid(2)`).
    public static var effectiveUserID: UInt32 { geteuid() }

    /// Whether the process runs as root (effective user id 0).
    public static var isRoot: Bool { effectiveUserID == 0 }
}
