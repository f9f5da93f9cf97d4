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
        let busy = NetlinkError.kernel(errno: .busy, kernelMessage: nil, call: "NL80211_CMD_START_NAN")
        #expect(NL80211Session.startNANRefusal(busy).code == .busy)
    }

    @Test func errnoHasNamesAndTheSystemsText() {
        #expect(Errno.accessDenied.name == "EACCES")
        #expect(Errno.noSpace.description == "No space left on device (ENOSPC)")
        #expect(Errno(rawValue: 4095).name == "errno 4095")
        #expect(Errno.accessDenied.isPermissionDenied && Errno.notPermitted.isPermissionDenied)
        #expect(!Errno.noSuchFile.isPermissionDenied)
    }

    @Test func descriptionIsOneActionableLineWithTheKernelsText() {
        let error = NetlinkError.kernel(errno: .notPermitted, kernelMessage: "missing capability", call: "NL80211_CMD_START_NAN")
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

    @Test func openingASessionWithoutNL80211FailsWithFamilyNotFound() async throws {
        // The build machine's kernel has no cfg80211; inside the VM the session opens and there is
        // nothing to check here (the live suite covers that case).
        do {
            try await NL80211.withSession { _ in }
        } catch let error as NetlinkError {
            #expect(error.code == .familyNotFound, "\(error)")
        }
    }

    @Test func openingAnHWSimSessionWithoutTheModuleFailsWithNotLoaded() async throws {
        do {
            try await HWSim.withSession { _ in }
        } catch let error as NetlinkError {
            #expect(error.code == .hwsimNotLoaded, "\(error)")
            #expect(error.description.contains("modprobe mac80211_hwsim"))
        }
    }
}
