/// A change in whether the USD engine can listen on its channel, after it started: the kernel refused a
/// remain-on-channel (the radio scanning, or held on another channel), or it listens again after a refusal.
/// One notice per change, not one per retry: while refused, the engine asks again every announcement period.
public enum USDListenNotice: Sendable, Hashable {
    /// The radio would not stay on `frequency` MHz; `reason` is the kernel's refusal in words. Frames sent to
    /// us are missed until ``resumed(frequency:)``; the engine keeps announcing and asking.
    case refused(frequency: Int, reason: String)
    /// The radio listens on `frequency` MHz again.
    case resumed(frequency: Int)
}
