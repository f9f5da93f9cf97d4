/// The status `waware` exits with: a named value for every way a run can end.
///
/// The numbers are part of the tool's interface (scripts and udev rules test them), so they never change
/// meaning. The codes 64-78 follow BSD `sysexits.h`; the codes 10-19 are `waware`'s own, one per failure a
/// caller may want to tell apart. `docs/cli.md` and the README list the same table.
struct ExitCode: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number the process exits with.
    let rawValue: Int32

    /// Creates an exit code from its number.
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// The command did what was asked.
    static let success = ExitCode(rawValue: 0)
    /// A failure with no more specific code (the message says what went wrong).
    static let failure = ExitCode(rawValue: 1)

    /// The named adapter (phy name, wiphy index or interface name) does not exist.
    static let adapterNotFound = ExitCode(rawValue: 10)
    /// The adapter exists but its driver offers no NAN interface, or no adapter at all has NAN.
    static let nanUnsupported = ExitCode(rawValue: 11)
    /// NAN is already running on the adapter (another process or tool started it).
    static let nanAlreadyRunning = ExitCode(rawValue: 12)
    /// The adapter disappeared (unplugged, driver unloaded, radio deleted) while NAN was running on it.
    static let deviceRemoved = ExitCode(rawValue: 13)
    /// The `mac80211_hwsim` module is not loaded, so no simulated radio can be managed.
    static let hwsimNotLoaded = ExitCode(rawValue: 14)
    /// The loaded `mac80211_hwsim` cannot create NAN radios (a kernel older than 7.2).
    static let hwsimWithoutNAN = ExitCode(rawValue: 15)
    /// `waware decode` was given bytes the NAN codec rejects (cut off, overlong, a reserved value).
    static let malformedFrame = ExitCode(rawValue: 16)
    /// `waware perf`: the peer or its data path went away during the report, or the peer does not answer probes.
    static let peerLost = ExitCode(rawValue: 17)

    /// Writing the output failed: standard output or error is full, closed or broken (`EX_IOERR`). A reader
    /// that went away (`EPIPE`) ends the command quietly with this code.
    /// listen/connect: no listener found, or the data path, TCP, TLS or the preface failed.
    static let connectionFailed = ExitCode(rawValue: 20)
    /// listen/connect: the connection ended early (peer gone, refused certificate, cut transfer).
    static let connectionTerminated = ExitCode(rawValue: 21)
    static let outputFailed = ExitCode(rawValue: 74)

    /// The command line is wrong: unknown command or option, missing or invalid value (`EX_USAGE`).
    static let usage = ExitCode(rawValue: 64)
    /// The kernel has no nl80211 (cfg80211 is not built or not loaded), so there is no Wi-Fi to talk to
    /// (`EX_UNAVAILABLE`).
    static let nl80211Unavailable = ExitCode(rawValue: 69)
    /// The kernel refused the request for lack of privilege; NAN needs `CAP_NET_ADMIN` (`EX_NOPERM`).
    static let permissionDenied = ExitCode(rawValue: 77)

    /// Every named code with its name and meaning, in numeric order: the source of the table in the help
    /// text and the documentation.
    static let documented: [(code: ExitCode, name: String, meaning: String)] = [
        (.success, "success", "the command did what was asked"),
        (.failure, "failure", "any other failure; the message says what went wrong"),
        (.adapterNotFound, "adapterNotFound", "no adapter with that phy name, wiphy index or interface name"),
        (.nanUnsupported, "nanUnsupported", "the adapter (or every adapter) has no NAN support"),
        (.nanAlreadyRunning, "nanAlreadyRunning", "NAN is already running on the adapter"),
        (.deviceRemoved, "deviceRemoved", "the adapter disappeared while NAN was running"),
        (.hwsimNotLoaded, "hwsimNotLoaded", "the mac80211_hwsim module is not loaded"),
        (.hwsimWithoutNAN, "hwsimWithoutNAN", "mac80211_hwsim cannot create NAN radios (kernel older than 7.2)"),
        (.malformedFrame, "malformedFrame", "decode: the bytes are not a well-formed NAN frame"),
        (
            .peerLost, "peerLost",
            "perf: the peer or its data path went away during the report, or it does not answer probes"
        ),
        (
            .connectionFailed, "connectionFailed",
            "connect/listen: no listener found, or the data path, TCP, TLS or the connection preface failed"
        ),
        (
            .connectionTerminated, "connectionTerminated",
            "connect/listen: the connection ended early (peer gone, refused, transfer cut)"
        ),
        (.usage, "usage", "bad command line (EX_USAGE)"),
        (.nl80211Unavailable, "nl80211Unavailable", "the kernel has no nl80211/cfg80211 (EX_UNAVAILABLE)"),
        (.outputFailed, "outputFailed", "writing the output failed (disk full, closed pipe: then quietly) (EX_IOERR)"),
        (.permissionDenied, "permissionDenied", "not permitted; run as root or with CAP_NET_ADMIN (EX_NOPERM)"),
    ]

    var description: String { String(rawValue) }
}
