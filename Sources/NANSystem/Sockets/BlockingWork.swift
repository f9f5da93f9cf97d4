import Dispatch

/// Runs blocking work (socket loops of the performance probes) on a Dispatch thread, off Swift's
/// cooperative pool, so a probe that waits on the network never holds a thread the NAN engine needs.
public enum BlockingWork {
    /// Runs `body` on a Dispatch thread and returns its result.
    public static func run<Result: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let outcome: Swift.Result<Result, Failure> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(Failure) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try outcome.get()
    }

    /// Starts `body` on a Dispatch thread of its own and returns at once (a responder loop).
    public static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInitiated).async(execute: body)
    }
}
