import Testing

@testable import NANEngine

@Suite struct TimeToLiveTests {
    @Test(arguments: [1e300, Double.infinity, -Double.infinity, Double.nan, -1, 0, 10_000_001])
    func outOfRangeSecondsAreRefusedNotTrapped(seconds: Double) {
        #expect(throws: DiscoveryError.self) { try TimeToLive.seconds(seconds) }
    }

    @Test func secondsInRangeBecomeADuration() throws {
        #expect(try TimeToLive.seconds(2.5).duration == .milliseconds(2500))
        #expect(try TimeToLive.seconds(TimeToLive.maximumSeconds).duration == .seconds(10_000_000))
    }

    @Test func engineErrorsCarryCodes() {
        #expect(DiscoveryError.sessionEnded.code == .sessionEnded)
        #expect(DiscoveryError.tooLong(300, limit: 255).code == .tooLong)
        #expect((try? TimeToLive.seconds(.nan)) == nil)
    }
}
