extension AsyncThrowingStream where Failure == any Error {
    /// A stream that `produce` fills from a task of its own, keeping the newest `buffer` elements for a
    /// consumer that falls behind. It ends when `produce` returns, or with its error as a ``WAError`` (about
    /// `operation`); the task is cancelled when the consumer goes away.
    static func produced(
        buffer: Int, while operation: String, _ produce: @escaping @Sendable (Continuation) async throws -> Void
    ) -> Self {
        let (stream, continuation) = makeStream(bufferingPolicy: .bufferingNewest(buffer))
        let task = Task {
            do {
                try await produce(continuation)
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: WAError.from(error, while: operation))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
