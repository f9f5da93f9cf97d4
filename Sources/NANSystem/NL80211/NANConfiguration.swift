public import NANWire
/// How to run NAN on a device: for ``NL80211Session/startNAN(on:configuration:)`` and
/// ``NL80211Session/changeNANConfiguration(on:_:)``.
///
/// Maps to `NL80211_ATTR_NAN_MASTER_PREF`, `NL80211_ATTR_BANDS` and the nested `NL80211_ATTR_NAN_CONFIG`.
public struct NANConfiguration: Sendable, Hashable {
    /// Master preference, 2…254 (1 and 255 are reserved for certification; 0 is rejected).
    public var masterPreference: UInt8
    /// Bands to operate on; nil lets the driver choose. Must include 2.4 GHz when given.
    public var bands: NANBands?
    /// The cluster to create or join (`50:6f:9a:01:xx:xx`); nil for a random one. Ignored after start.
    public var clusterID: MACAddress?
    /// Per-band settings (`NL80211_NAN_CONF_BAND_CONFIGS`).
    public var bandConfigurations: [NANBandConfiguration]
    /// Scan period in seconds (0 turns scanning off).
    public var scanPeriodSeconds: UInt16?
    /// Scan dwell time in TU (the kernel accepts 50…512).
    public var scanDwellTimeTU: UInt16?
    /// Discovery beacon interval in TU (50…200).
    public var discoveryBeaconIntervalTU: UInt8?
    /// Ask for `nextDiscoveryWindow` events (`NL80211_NAN_CONF_NOTIFY_DW`); needed when user space
    /// runs the discovery engine.
    public var notifyDiscoveryWindows: Bool
    /// NAN attributes to add to the device's beacons and SDFs (`EXTRA_ATTRS`).
    public var extraAttributes: [UInt8]?
    /// Vendor elements to add (`VENDOR_ELEMS`).
    public var vendorElements: [UInt8]?

    /// Creates a configuration; the defaults start NAN on the driver's bands with DW notifications on.
    public init(
        masterPreference: UInt8 = 2, bands: NANBands? = nil, clusterID: MACAddress? = nil,
        bandConfigurations: [NANBandConfiguration] = [], scanPeriodSeconds: UInt16? = nil,
        scanDwellTimeTU: UInt16? = nil, discoveryBeaconIntervalTU: UInt8? = nil,
        notifyDiscoveryWindows: Bool = true, extraAttributes: [UInt8]? = nil, vendorElements: [UInt8]? = nil
    ) {
        self.masterPreference = masterPreference
        self.bands = bands
        self.clusterID = clusterID
        self.bandConfigurations = bandConfigurations
        self.scanPeriodSeconds = scanPeriodSeconds
        self.scanDwellTimeTU = scanDwellTimeTU
        self.discoveryBeaconIntervalTU = discoveryBeaconIntervalTU
        self.notifyDiscoveryWindows = notifyDiscoveryWindows
        self.extraAttributes = extraAttributes
        self.vendorElements = vendorElements
    }

    /// Whether any field of `NL80211_ATTR_NAN_CONFIG` is set (devices without configurable
    /// synchronization accept only master preference and bands).
    var hasNANConfig: Bool {
        clusterID != nil || !bandConfigurations.isEmpty || scanPeriodSeconds != nil || scanDwellTimeTU != nil
            || discoveryBeaconIntervalTU != nil || notifyDiscoveryWindows || extraAttributes != nil
            || vendorElements != nil
    }
}

/// Settings for one NAN band. `enum nl80211_nan_band_conf_attributes`.
public struct NANBandConfiguration: Sendable, Hashable {
    /// The band.
    public var band: RadioBand
    /// The discovery channel (5 GHz only: 5220 or 5745).
    public var frequency: Frequency?
    /// RSSI threshold for "close" in dBm (above -60).
    public var rssiClose: Int8?
    /// RSSI threshold for "middle" in dBm (above -75).
    public var rssiMiddle: Int8?
    /// Wake every 2^(n-1) discovery windows, 0…5 (0, "never", is not allowed on 2.4 GHz).
    public var wakeDiscoveryWindowInterval: UInt8?
    /// Do not scan on this band (not allowed on 2.4 GHz).
    public var disableScan: Bool

    /// Creates a band configuration.
    public init(
        band: RadioBand, frequency: Frequency? = nil, rssiClose: Int8? = nil, rssiMiddle: Int8? = nil,
        wakeDiscoveryWindowInterval: UInt8? = nil, disableScan: Bool = false
    ) {
        self.band = band
        self.frequency = frequency
        self.rssiClose = rssiClose
        self.rssiMiddle = rssiMiddle
        self.wakeDiscoveryWindowInterval = wakeDiscoveryWindowInterval
        self.disableScan = disableScan
    }
}
