/// The outcome of `waware diagnose --two-radio`: two simulated NAN radios made for the test, one
/// publishing and one subscribing, over mac80211_hwsim's medium. Plain values; the verdict is
/// ``Diagnosis/twoRadioCheck(_:)``'s. The field names are the JSON schema (docs/cli.md).
@_spi(Tools) public struct TwoRadioReport: Codable, Equatable, Sendable {
    /// The phy names of the two radios created, publisher first (empty when none could be made).
    public var radios: [String]
    /// The publisher's NAN management address.
    public var publisher: String?
    /// The subscriber's NAN management address.
    public var subscriber: String?
    /// Whether the subscriber found the publisher within the time limit.
    public var discovered: Bool
    /// Seconds from the subscribe to the discovery.
    public var discoverySeconds: Double?
    /// The same in discovery-window periods (512 TU, 0.524 s).
    public var discoveryWindows: Double?
    /// The signal of the publisher's frame that matched, dBm, if hwsim reported it.
    public var signal: Int?
    /// The frequency (MHz) of that frame.
    public var frequency: Int?
    /// Seconds from the subscriber's follow-up to the publisher's answer arriving back, when it did.
    public var followUpRoundTripSeconds: Double?
    /// The same in discovery-window periods.
    public var followUpRoundTripWindows: Double?
    /// Why the test failed or was not run, when it did not pass.
    public var error: String?
    /// What to do about it, when something can be done.
    public var remedy: String?
    /// Whether everything the test created (radios, NAN interfaces) was gone when it ended.
    public var cleanedUp: Bool
}

extension TwoRadioReport {
    /// A test that could not run or failed before any radio existed.
    static func notRun(_ error: String, remedy: String?) -> TwoRadioReport {
        TwoRadioReport(
            radios: [], publisher: nil, subscriber: nil, discovered: false, discoverySeconds: nil,
            discoveryWindows: nil, signal: nil, frequency: nil, followUpRoundTripSeconds: nil,
            followUpRoundTripWindows: nil, error: error, remedy: remedy, cleanedUp: true)
    }

    /// `seconds` in DW periods, to the hundredth.
    static func windows(_ seconds: Double) -> Double {
        (seconds / WADiscoveryWindow.periodSeconds * 100).rounded() / 100
    }
}
