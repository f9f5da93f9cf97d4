@preconcurrency import Dispatch
import NANSystem

/// Cancels `task` when the process gets SIGINT or SIGTERM (both ignored, so that only this watch sees them).
/// Keep the returned sources for as long as the watch should last.
func cancelOnTermination(_ task: Task<Void, any Error>) -> [any DispatchSourceSignal] {
    [ProcessControl.Signal.interrupt, .terminate].map { signal in
        ProcessControl.ignore(signal)
        let source = DispatchSource.makeSignalSource(signal: signal.rawValue, queue: .global())
        source.setEventHandler(handler: { @Sendable in task.cancel() })
        source.resume()
        return source
    }
}
