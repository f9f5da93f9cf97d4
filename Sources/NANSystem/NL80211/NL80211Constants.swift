// nl80211 numbers for Linux 7.2, defined here rather than imported from a C header so the
// project does not depend on how new the build machine's linux-libc-dev is.
// Tests/NANSystemTests/NL80211ConstantsTests.swift checks every case against a real 7.2
// nl80211.h: a case `fooBarBaz` in `NL80211Attribute` must equal `NL80211_ATTR_FOO_BAR_BAZ`.

/// nl80211 commands (`enum nl80211_commands`).
enum NL80211Command: UInt8, CaseIterable, Sendable {
    case getWiphy = 1
    case newWiphy = 3
    case delWiphy = 4
    case getInterface = 5
    case setInterface = 6
    case newInterface = 7
    case delInterface = 8
    case newKey = 11
    case delKey = 12
    case getStation = 17
    case getReg = 31
    case setStation = 18
    case newStation = 19
    case delStation = 20
    case remainOnChannel = 55
    case cancelRemainOnChannel = 56
    case registerFrame = 58
    case frame = 59
    case frameTxStatus = 60
    case unexpectedFrame = 83
    case startNan = 115
    case stopNan = 116
    case addNanFunction = 117
    case delNanFunction = 118
    case changeNanConfig = 119
    case nanMatch = 120
    case controlPortFrame = 129
    case nanNextDwNotification = 158
    case nanClusterJoined = 159
    case nanSetLocalSched = 161
    case nanSchedUpdateDone = 162
    case nanSetPeerSched = 163
    case nanUlwUpdate = 164
    case nanChannelEvac = 165
}

/// Top-level nl80211 attributes (`enum nl80211_attrs`).
enum NL80211Attribute: UInt16, CaseIterable, Sendable {
    case wiphy = 1
    case wiphyName = 2
    case ifindex = 3
    case ifname = 4
    case iftype = 5
    case mac = 6
    case regAlpha2 = 33
    case regRules = 34
    case dfsRegion = 146
    case wiphySelfManagedReg = 216
    case key = 80
    case staAid = 16
    case staFlags2 = 67
    case staInfo = 21
    case staListenInterval = 18
    case staSupportedRates = 19
    case htCapability = 31
    case vhtCapability = 157
    case heCapability = 269
    case supportedIftypes = 32
    case wiphyBands = 22
    case wiphyFreq = 38
    case wiphyFreqOffset = 290
    case generation = 46
    case supportedCommands = 50
    case frame = 51
    case cookie = 88
    case frameMatch = 91
    case ack = 92
    case frameType = 101
    case offchannelTxOk = 108
    case maxRemainOnChannelDuration = 111
    case duration = 87
    case interfaceCombinations = 120
    case softwareIftypes = 121
    case dontWaitForAck = 142
    case rxSignalDbm = 151
    case wdev = 153
    case channelWidth = 159
    case centerFreq1 = 160
    case centerFreq2 = 161
    case protocolFeatures = 173
    case splitWiphyDump = 174
    case rxmgmtFlags = 188
    case socketOwner = 204
    case extFeatures = 217
    case nanMasterPref = 238
    case bands = 239
    case nanFunc = 240
    case nanMatch = 241
    case nanConfig = 342
    case nanNewCluster = 343
    case nanCapabilities = 344
    case nanChannel = 351
    case nanChannelEntry = 352
    case nanTimeSlots = 353
    case nanRxNss = 354
    case nanAvailBlob = 355
    case nanSchedDeferred = 356
    case nanSchedUpdateSuccess = 357
    case nanNmiMac = 358
    case nanUlw = 359
    case nanCommittedDw = 360
    case nanSeqId = 361
    case nanMaxChanSwitchTime = 362
    case nanPeerMaps = 363
    case max = 366
}

/// Interface types (`enum nl80211_iftype`).
enum NL80211InterfaceTypeCode: UInt32, CaseIterable, Sendable {
    case unspecified = 0
    case adhoc = 1
    case station = 2
    case ap = 3
    case apVlan = 4
    case wds = 5
    case monitor = 6
    case meshPoint = 7
    case p2pClient = 8
    case p2pGo = 9
    case p2pDevice = 10
    case ocb = 11
    case nan = 12
    case nanData = 13
    case pd = 14
}

/// Frequency bands (`enum nl80211_band`); NAN band bitmaps use BIT(band).
enum NL80211BandCode: UInt8, CaseIterable, Sendable {
    case _2ghz = 0
    case _5ghz = 1
    case _60ghz = 2
    case _6ghz = 3
    case s1ghz = 4
    case lc = 5
}

/// Attributes nested in NL80211_ATTR_NAN_FUNC (`enum nl80211_nan_func_attributes`).
enum NL80211NANFunctionAttribute: UInt16, CaseIterable, Sendable {
    case type = 1
    case serviceId = 2
    case publishType = 3
    case publishBcast = 4
    case subscribeActive = 5
    case followUpId = 6
    case followUpReqId = 7
    case followUpDest = 8
    case closeRange = 9
    case ttl = 10
    case serviceInfo = 11
    case srf = 12
    case rxMatchFilter = 13
    case txMatchFilter = 14
    case instanceId = 15
    case termReason = 16
}

/// NAN function types (`enum nl80211_nan_function_type`).
enum NL80211NANFunctionTypeCode: UInt8, CaseIterable, Sendable {
    case publish = 0
    case subscribe = 1
    case followUp = 2
}

/// NAN function termination reasons (`enum nl80211_nan_func_term_reason`).
enum NL80211NANTermReasonCode: UInt8, CaseIterable, Sendable {
    case userRequest = 0
    case ttlExpired = 1
    case error = 2
}

/// Attributes nested in NL80211_NAN_FUNC_SRF (`enum nl80211_nan_srf_attributes`).
enum NL80211NANSRFAttribute: UInt16, CaseIterable, Sendable {
    case include = 1
    case bf = 2
    case bfIdx = 3
    case macAddrs = 4
}

/// Attributes nested in NL80211_ATTR_NAN_MATCH (`enum nl80211_nan_match_attributes`).
enum NL80211NANMatchAttribute: UInt16, CaseIterable, Sendable {
    case funcLocal = 1
    case funcPeer = 2
}

/// Attributes of one NAN band configuration (`enum nl80211_nan_band_conf_attributes`).
enum NL80211NANBandConfigAttribute: UInt16, CaseIterable, Sendable {
    case band = 1
    case freq = 2
    case rssiClose = 3
    case rssiMiddle = 4
    case wakeDw = 5
    case disableScan = 6
}

/// Attributes nested in NL80211_ATTR_NAN_CONFIG (`enum nl80211_nan_conf_attributes`).
enum NL80211NANConfigAttribute: UInt16, CaseIterable, Sendable {
    case clusterId = 1
    case extraAttrs = 2
    case vendorElems = 3
    case bandConfigs = 4
    case scanPeriod = 5
    case scanDwellTime = 6
    case discoveryBeaconInterval = 7
    case notifyDw = 8
}

/// Attributes nested in NL80211_ATTR_NAN_CAPABILITIES (`enum nl80211_nan_capabilities`).
enum NL80211NANCapabilityAttribute: UInt16, CaseIterable, Sendable {
    case configurableSync = 1
    case userspaceDe = 2
    case opMode = 3
    case numAntennas = 4
    case maxChannelSwitchTime = 5
    case capabilities = 6
    case phy = 7
}

/// Attributes nested in NL80211_NAN_CAPA_PHY (`enum nl80211_nan_phy_cap_attr`).
enum NL80211NANPhyCapabilityAttribute: UInt16, CaseIterable, Sendable {
    case htMcsSet = 1
    case htCapa = 2
    case htAmpduFactor = 3
    case htAmpduDensity = 4
    case vhtMcsSet = 5
    case vhtCapa = 6
    case heMac = 7
    case hePhy = 8
    case heMcsSet = 9
    case hePpe = 10
}

/// Attributes of one peer map in NL80211_ATTR_NAN_PEER_MAPS (`enum nl80211_nan_peer_map_attrs`).
enum NL80211NANPeerMapAttribute: UInt16, CaseIterable, Sendable {
    case mapId = 1
    case timeSlots = 2
}

/// Attributes nested in NL80211_ATTR_STA_INFO (`enum nl80211_sta_info`).
enum NL80211StationInfoAttribute: UInt16, CaseIterable, Sendable {
    case inactiveTime = 1
    case rxBytes = 2
    case txBytes = 3
    case signal = 7
    case txBitrate = 8
    case rxPackets = 9
    case txPackets = 10
    case txRetries = 11
    case txFailed = 12
    case signalAvg = 13
    case rxBitrate = 14
    case connectedTime = 16
    case rxBytes64 = 23
    case txBytes64 = 24
    case expectedThroughput = 27
    case rxDropMisc = 28
    case tidStats = 31
    case rxDuration = 32
    case ackSignal = 34
    case ackSignalAvg = 35
    case txDuration = 39
}

/// Attributes of one TID's counters in NL80211_STA_INFO_TID_STATS (`enum nl80211_tid_stats`).
enum NL80211TIDStatsAttribute: UInt16, CaseIterable, Sendable {
    case rxMsdu = 1
    case txMsdu = 2
    case txMsduRetries = 3
    case txMsduFailed = 4
}

/// Attributes nested in a station's TX/RX bitrate (`enum nl80211_rate_info`).
enum NL80211RateInfoAttribute: UInt16, CaseIterable, Sendable {
    case bitrate = 1
    case mcs = 2
    case _40MhzWidth = 3
    case shortGi = 4
    case bitrate32 = 5
    case vhtMcs = 6
    case vhtNss = 7
    case _80MhzWidth = 8
    case _160MhzWidth = 10
    case heMcs = 13
    case heNss = 14
    case _320MhzWidth = 18
    case ehtMcs = 19
    case ehtNss = 20
}

/// Attributes nested in NL80211_ATTR_KEY (`enum nl80211_key_attributes`).
enum NL80211KeyAttribute: UInt16, CaseIterable, Sendable {
    case data = 1
    case idx = 2
    case cipher = 3
    case seq = 4
    case `default` = 5
    case defaultMgmt = 6
    case type = 7
}

/// Key types (`enum nl80211_key_type`).
enum NL80211KeyTypeCode: UInt32, CaseIterable, Sendable {
    case group = 0
    case pairwise = 1
}

/// Station flags, bit numbers in `struct nl80211_sta_flag_update` (`enum nl80211_sta_flags`).
enum NL80211StationFlag: UInt32, CaseIterable, Sendable {
    case authorized = 1
    case shortPreamble = 2
    case wme = 3
    case mfp = 4
    case authenticated = 5
    case associated = 7
}

/// Attributes of one interface-combination limit (`enum nl80211_iface_limit_attrs`).
enum NL80211InterfaceLimitAttribute: UInt16, CaseIterable, Sendable {
    case max = 1
    case types = 2
}

/// Attributes of one interface combination (`enum nl80211_if_combination_attrs`).
enum NL80211InterfaceCombinationAttribute: UInt16, CaseIterable, Sendable {
    case limits = 1
    case maxnum = 2
    case staApBiMatch = 3
    case numChannels = 4
}

/// Extended feature bit indices in NL80211_ATTR_EXT_FEATURES (`enum nl80211_ext_feature_index`).
enum NL80211ExtendedFeature: UInt32, CaseIterable, Sendable {
    case secureNan = 63
}

/// Channel widths (`enum nl80211_chan_width`).
enum NL80211ChannelWidthCode: UInt32, CaseIterable, Sendable {
    case _20Noht = 0
    case _20 = 1
    case _40 = 2
    case _80 = 3
    case _80p80 = 4
    case _160 = 5
    case _5 = 6
    case _10 = 7
    case _320 = 13
}

/// Protocol feature bits (`enum nl80211_protocol_features`).
enum NL80211ProtocolFeature: UInt32, CaseIterable, Sendable {
    case splitWiphyDump = 1
}

/// Attributes of one regulatory rule in NL80211_ATTR_REG_RULES (`enum nl80211_reg_rule_attr`).
enum NL80211RegulatoryRuleAttribute: UInt16, CaseIterable, Sendable {
    case regRuleFlags = 1
    case freqRangeStart = 2
    case freqRangeEnd = 3
    case freqRangeMaxBw = 4
    case powerRuleMaxAntGain = 5
    case powerRuleMaxEirp = 6
    case dfsCacTime = 7
}

/// Regulatory rule flag bits (`enum nl80211_reg_rule_flags`), the ones waware reads.
enum NL80211RegulatoryRuleFlag: UInt32, CaseIterable, Sendable {
    case noOfdm = 0x1
    case noIndoor = 0x4
    case noOutdoor = 0x8
    case dfs = 0x10
    case noIr = 0x80
    case autoBw = 0x800
}

/// Attributes of one band in NL80211_ATTR_WIPHY_BANDS (`enum nl80211_band_attr`), the ones waware reads.
enum NL80211BandAttribute: UInt16, CaseIterable, Sendable {
    case freqs = 1
}

/// Attributes of one channel in NL80211_BAND_ATTR_FREQS (`enum nl80211_frequency_attr`), the ones waware reads.
enum NL80211FrequencyAttribute: UInt16, CaseIterable, Sendable {
    case freq = 1
    case disabled = 2
    case noIr = 3
    case radar = 5
    case maxTxPower = 6
}
