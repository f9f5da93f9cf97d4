import Dispatch
import Synchronization
@_spi(Tools) import WiFiAware

/// A progress bar on standard error for file transfers: `[#########           ]  45%  2.3 of 5.0 MB`,
/// redrawn in place when the percentage changes, ended with a newline.
final class ProgressBar: Sendable {
    private let enabled: Bool
    private let lastPercent = Mutex(-1)

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: WAResourceProgress) {
        guard enabled else { return }
        let percent = Int(progress.fraction * 100)
        guard
            lastPercent.withLock({ last in
                defer { last = percent }
                return last != percent
            })
        else { return }
        let filled = percent / 5
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 20 - filled)
        let done = String(format3: Double(progress.completed) / 1e6),
            total = String(format3: Double(progress.total) / 1e6)
        Output.emit(
            "\r[\(bar)] \(String(repeating: " ", count: 3 - String(percent).count))\(percent)%  \(done) of \(total) MB",
            to: .standardError)
    }

    func finish() {
        if enabled && lastPercent.withLock({ $0 }) >= 0 { Output.emit("\n", to: .standardError) }
    }
}

/// Lines of standard input, read on a thread of their own (a terminal or a pipe may block).
enum StandardInput {
    /// The next line without its newline; nil at the end of input.
    static func nextLine() async -> String? {
        await withCheckedContinuation { line in
            DispatchQueue.global().async { line.resume(returning: readLine(strippingNewline: true)) }
        }
    }
}
