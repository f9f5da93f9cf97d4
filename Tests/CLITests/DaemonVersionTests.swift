import NANDaemon
import Testing

@testable import waware

/// wawared reports its release in `status` (and `waware diagnose` prints it): it must be the CLI's.
@Test func theDaemonReportsTheReleaseOfTheCLI() {
    #expect(DaemonProtocol.softwareVersion == Waware.version)
}
