@testable import NANSystem
import Testing

@Suite struct EventSinkTests {
    @Test func eventsDroppedByAFullBufferAreReportedAsOverrun() async throws {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: NL80211Event.self, bufferingPolicy: .bufferingNewest(2))
        let sink = NL80211EventSink(continuation)
        for cookie in 1...5 {
            sink.deliver(.frameTxStatus(cookie: FrameCookie(rawValue: UInt64(cookie)), acked: true))
        }
        sink.finish()
        var received: [NL80211Event] = []
        for try await event in stream { received.append(event) }
        #expect(
            received.contains { if case .overrun(let count) = $0 { return (count ?? 0) > 0 } else { return false } })
        let last = received.last { if case .frameTxStatus = $0 { return true } else { return false } }
        #expect(last == .frameTxStatus(cookie: FrameCookie(rawValue: 5), acked: true))
    }

    @Test func nothingIsReportedLostWhenTheBufferKeepsUp() async throws {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: NL80211Event.self, bufferingPolicy: .bufferingNewest(8))
        let sink = NL80211EventSink(continuation)
        sink.deliver(.wiphyRemoved(WiphyIndex(rawValue: 1)))
        sink.deliver(.wiphyRemoved(WiphyIndex(rawValue: 2)))
        sink.finish()
        var received: [NL80211Event] = []
        for try await event in stream { received.append(event) }
        #expect(received == [.wiphyRemoved(WiphyIndex(rawValue: 1)), .wiphyRemoved(WiphyIndex(rawValue: 2))])
    }

    @Test func aFailureEndsTheStreamWithTheError() async {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: NL80211Event.self, bufferingPolicy: .bufferingNewest(8))
        let sink = NL80211EventSink(continuation)
        sink.finish(throwing: NetlinkError(code: .system, errno: .badFileDescriptor, call: "recv"))
        await #expect(throws: NetlinkError.self) {
            for try await _ in stream {}
        }
    }
}
