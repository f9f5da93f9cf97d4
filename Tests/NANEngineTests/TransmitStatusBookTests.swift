import Testing

@testable import NANEngine

/// A transmit status reaches what waits for it whichever comes first, the status or the wait, and the book
/// stays bounded when statuses or waits are never matched.
@Suite struct TransmitStatusBookTests {
    @Test func aStatusAfterTheWaitGoesToTheWaiter() {
        var book = TransmitStatusBook<String>(earlyLimit: 4)
        let early = book.takeEarly(1)
        book.expect(1, "follow-up")
        let waiter = book.arrived(1, acknowledged: true)
        #expect(early == nil && waiter == "follow-up")
        #expect(book.waitingCount == 0 && book.earlyCount == 0)
    }

    @Test func aStatusBeforeTheWaitIsKeptAndTakenOnce() {
        var book = TransmitStatusBook<String>(earlyLimit: 4)
        let waiter = book.arrived(7, acknowledged: false)
        #expect(waiter == nil)
        let taken = [book.takeEarly(7), book.takeEarly(7)]
        #expect(taken == [false, nil])
    }

    @Test func unclaimedStatusesAreBoundedOldestFirst() {
        var book = TransmitStatusBook<String>(earlyLimit: 2)
        for cookie in [1, 2, 3] as [UInt64] { _ = book.arrived(cookie, acknowledged: true) }
        #expect(book.earlyCount == 2)
        let taken = [book.takeEarly(1), book.takeEarly(2), book.takeEarly(3)]
        #expect(taken == [nil, true, true])
    }

    @Test func waitsAreBoundedAndTheOldestCookieGoes() {
        var book = TransmitStatusBook<String>(earlyLimit: 2, waitingLimit: 2)
        let dropped = [book.expect(10, "a"), book.expect(11, "b"), book.expect(12, "c")]
        #expect(dropped == [nil, nil, "a"])
        let cancelled = book.cancel(11)
        let rest = book.removeAll()
        #expect(cancelled == "b" && rest == ["c"])
        #expect(book.waitingCount == 0)
    }
}
