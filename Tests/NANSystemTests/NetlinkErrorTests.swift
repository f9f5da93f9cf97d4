import Glibc
@testable import NANSystem
import Testing

@Suite struct NetlinkErrorTests {
    @Test(arguments: [
        (EPERM, "NL80211_CMD_START_NAN", NetlinkError.Code.permissionDenied),
        (EACCES, "NL80211_CMD_NEW_INTERFACE", .permissionDenied),
        (ENODEV, "NL80211_CMD_STOP_NAN", .noSuchDevice),
        (EEXIST, "NL80211_CMD_NEW_INTERFACE", .kernel),
        (ENOTCONN, "NL80211_CMD_CHANGE_NAN_CONFIG", .notRunning),
        (ENETDOWN, "NL80211_CMD_CHANGE_NAN_CONFIG", .notRunning),
        (EOPNOTSUPP, "NL80211_CMD_ADD_NAN_FUNCTION", .notSupported),
        (EBUSY, "NL80211_CMD_START_NAN", .busy),
        (ENOBUFS, "recv", .overrun),
        (EINVAL, "NL80211_CMD_START_NAN", .kernel),
    ])
    func kernelErrnoMapsToItsCode(errno: Int32, call: String, code: NetlinkError.Code) {
        let error = NetlinkError.kernel(errno: Errno(rawValue: errno), kernelMessage: nil, call: call)
        #expect(error.code == code)
        #expect(error.errno == Errno(rawValue: errno))
        #expect(error.call == call)
    }

    @Test func eexistMeansAlreadyRunningOnlyForStartNAN() {
        let start = NetlinkError.kernel(errno: .fileExists, kernelMessage: nil, call: "NL80211_CMD_START_NAN")
        #expect(start.code == .kernel)
        #expect(NL80211Session.startNANRefusal(start).code == .alreadyRunning)
    }

    /// What the radio-contention VM scenario saw: a second process's START_NAN on the same radio is refused
    /// with EBUSY, which is NAN running there already, not a generic "busy".
    @Test func ebusyOnStartNANMeansAnotherProcessRunsNANOnTheRadio() {
        let busy = NetlinkError.kernel(errno: .busy, kernelMessage: nil, call: "NL80211_CMD_START_NAN")
        let refusal = NL80211Session.startNANRefusal(busy)
        #expect(refusal.code == .alreadyRunning)
        #expect(refusal.errno == .busy)
        let other = NetlinkError.kernel(errno: .invalidArgument, kernelMessage: nil, call: "NL80211_CMD_START_NAN")
        #expect(NL80211Session.startNANRefusal(other).code == other.code)
    }

    @Test func errnoHasNamesAndTheSystemsText() {
        #expect(Errno.accessDenied.name == "EACCES")
        #expect(Errno.noSpace.description == "No space left on device (ENOSPC)")
        #expect(Errno(rawValue: 4095).name == "errno 4095")
        #expect(Errno.accessDenied.isPermissionDenied && Errno.notPermitted.isPermissionDenied)
        #expect(!Errno.noSuchFile.isPermissionDenied)
    }

    @Test func descriptionIsOneActionableLineWithTheKernelsText() {
        let error = NetlinkError.kernel(
            errno: .notPermitted, kernelMessage: "missing capability", call: "NL80211_CMD_START_NAN")
        let text = error.description
        #expect(!text.contains("\n"))
        #expect(text.contains("NL80211_CMD_START_NAN"))
        #expect(text.contains("EPERM"))
        #expect(text.contains("missing capability"))
        #expect(text.contains("CAP_NET_ADMIN"))
    }

    @Test func familyNotFoundSaysThereIsNoNL80211() {
        let error = NetlinkError(code: .familyNotFound, errno: .noSuchFile, call: "genl_ctrl_search_by_name")
        #expect(error.description.contains("no nl80211"))
    }

    /// Whether the kernel has a module, told by sysfs (independently of netlink): a module loaded or built
    /// in with parameters, as cfg80211 and mac80211_hwsim are, has /sys/module/NAME/parameters.
    private static func kernelHasModule(_ name: String) -> Bool {
        access("/sys/module/\(name)/parameters", F_OK) == 0
    }

    @Test func openingASessionFailsWithFamilyNotFoundExactlyWhenTheKernelHasNoCfg80211() async throws {
        // The build machine's kernel has no cfg80211; the VM's has. Either way there is something to check.
        let present = Self.kernelHasModule("cfg80211")
        do {
            try await NL80211.withSession { _ in }
            #expect(present, "an nl80211 session opened, but sysfs shows no cfg80211 module")
        } catch let error as NetlinkError {
            #expect(!present, "cfg80211 is in the kernel (sysfs), yet the session failed: \(error)")
            #expect(error.code == .familyNotFound, "\(error)")
        }
    }

    @Test func openingAnHWSimSessionFailsWithNotLoadedExactlyWhenTheModuleIsNotLoaded() async throws {
        let loaded = Self.kernelHasModule("mac80211_hwsim")
        do {
            try await HWSim.withSession { _ in }
            #expect(loaded, "an hwsim session opened, but sysfs shows no mac80211_hwsim module")
        } catch let error as NetlinkError {
            #expect(!loaded, "mac80211_hwsim is loaded (sysfs), yet the session failed: \(error)")
            #expect(error.code == .hwsimNotLoaded, "\(error)")
            #expect(error.description.contains("modprobe mac80211_hwsim"))
        }
    }
}
