import NANWire
import Testing

@testable import NANEngine

/// A remain-on-channel the kernel refuses after the start is told once, and so is listening again.
@Suite struct USDListenNoticeTests {
    @Test func aRefusedListenIsToldOnceThenItsResumption() async throws {
        let bench = await USDBench(count: 1)
        let engine = bench.engines[0]
        await bench.air.refuseListens(usdAddress(0), true)
        _ = try await engine.start(.subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        await bench.ticks(3)
        await bench.air.refuseListens(usdAddress(0), false)
        await bench.ticks(2)
        await bench.air.refuseListens(usdAddress(0), true)
        // The listen period ends; the next one is refused.
        await engine.handle(.listenEnded)
        await bench.ticks(2)
        await engine.shutdown(.userRequest)
        var notices: [USDListenNotice] = []
        for await notice in engine.listenNotices { notices.append(notice) }
        #expect(
            notices == [
                .refused(frequency: 2437, reason: "NL80211_CMD_REMAIN_ON_CHANNEL: busy (EBUSY)"),
                .resumed(frequency: 2437),
                .refused(frequency: 2437, reason: "NL80211_CMD_REMAIN_ON_CHANNEL: busy (EBUSY)"),
            ])
        #expect(await bench.air.listens[usdAddress(0)] == 2)
    }

    @Test func anEngineThatAlwaysListensTellsNothing() async throws {
        let bench = await USDBench(count: 1)
        let engine = bench.engines[0]
        _ = try await engine.start(.subscribe(SubscribeConfiguration(serviceID: service("chat"))))
        await bench.ticks(3)
        await engine.shutdown(.userRequest)
        var notices: [USDListenNotice] = []
        for await notice in engine.listenNotices { notices.append(notice) }
        #expect(notices.isEmpty)
    }
}
