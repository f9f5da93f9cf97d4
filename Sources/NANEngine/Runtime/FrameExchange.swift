public import NANSystem

/// A management frame received on the NAN management interface.
public struct NANReceivedFrame: Sendable, Hashable {
    /// The whole 802.11 frame, header included.
    public var bytes: [UInt8]
    /// The channel it arrived on.
    public var frequency: Frequency
    /// Its signal, if the driver reported one.
    public var signalDBM: Int32?

    /// Makes a frame.
    public init(bytes: [UInt8], frequency: Frequency, signalDBM: Int32?) {
        self.bytes = bytes
        self.frequency = frequency
        self.signalDBM = signalDBM
    }
}

/// How a frame exchange (``NANRuntime/exchange(_:frequency:timeout:response:)``) ended.
public struct FrameExchange: Sendable, Hashable {
    /// The frame's transmit status: acknowledged or not; nil if it had not come when the response did.
    public var acknowledged: Bool?
    /// The matching response, when one was awaited and came.
    public var response: NANReceivedFrame?

    /// Makes an outcome.
    public init(acknowledged: Bool?, response: NANReceivedFrame?) {
        self.acknowledged = acknowledged
        self.response = response
    }
}

extension NANRuntime {
    /// Sends a management frame on the NAN management interface and waits for the matching response frame
    /// or, with no `response` given, for its transmit status.
    ///
    /// A response is a received frame for which `response` returns true; it is handed to this exchange only,
    /// not to the clients registered for its prefix. Its prefix must be registered by some client
    /// (``events(for:)``), or the kernel does not pass it up. With a `response` to wait for, an
    /// unacknowledged transmission ends the exchange at once (`acknowledged == false`, no response).
    ///
    /// ```swift
    /// let outcome = try await runtime.exchange(request, timeout: .seconds(1)) { reply in
    ///     isResponse(reply, to: request)   // e.g. same dialog token, from the peer
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - frame: the whole 802.11 frame, header included.
    ///   - frequency: the channel; nil means the current one.
    ///   - timeout: how long to wait after sending.
    ///   - response: recognises the response frame (whole frame, header included); nil waits for the TX status.
    /// - Throws: ``NANRuntimeError`` `exchangeTimedOut` or `sessionEnded`, the kernel's `NetlinkError` if it
    ///   refuses the frame, or `CancellationError`.
    public nonisolated func exchange(
        _ frame: [UInt8], frequency: Frequency? = nil, timeout: Duration = .seconds(2),
        response: (@Sendable ([UInt8]) -> Bool)? = nil
    ) async throws -> FrameExchange {
        let key = router.addWaiter(NANEventRouter.Waiter(response: response))
        do {
            let cookie = try await session.sendFrame(frame, on: managementInterface.wdev, frequency: frequency)
            router.setCookie(cookie, for: key)
        } catch {
            router.remove(key)
            throw error
        }
        let outcome = await router.wait(key, timeout: timeout)
        try Task.checkCancellation()
        switch outcome {
        case .response(.frameReceived(_, let frequency, let signal, let bytes), let acknowledged):
            return FrameExchange(
                acknowledged: acknowledged,
                response: NANReceivedFrame(bytes: bytes, frequency: frequency, signalDBM: signal))
        case .status(let acknowledged):
            return FrameExchange(acknowledged: acknowledged, response: nil)
        case .timedOut:
            throw NANRuntimeError.exchangeTimedOut(timeout)
        case .ended, .response, .cluster:
            throw NANRuntimeError.sessionEnded
        }
    }
}
