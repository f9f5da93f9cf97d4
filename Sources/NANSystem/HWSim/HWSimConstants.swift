// mac80211_hwsim generic netlink numbers. hwsim's header is not part of the uapi, so these come
// from the kernel's drivers/net/wireless/virtual/mac80211_hwsim.h (Linux 7.2) and are checked in
// the VM bench by creating NAN radios.

/// hwsim commands (`enum hwsim_commands`).
enum HWSimCommand: UInt8, CaseIterable, Sendable {
    case register = 1
    case frame = 2
    case txInfoFrame = 3
    case newRadio = 4
    case delRadio = 5
    case getRadio = 6

    /// `HWSIM_CMD_NEW_RADIO`, for errors.
    var cName: String { "HWSIM_CMD_" + cNameSuffix(String(describing: self)) }
}

/// hwsim attributes (`enum hwsim_attrs`).
enum HWSimAttribute: UInt16, CaseIterable, Sendable {
    case addrReceiver = 1
    case addrTransmitter = 2
    case frame = 3
    case flags = 4
    case rxRate = 5
    case signal = 6
    case txInfo = 7
    case cookie = 8
    case channels = 9
    case radioId = 10
    case regHintAlpha2 = 11
    case regCustomReg = 12
    case regStrictReg = 13
    case supportP2pDevice = 14
    case useChanctx = 15
    case destroyRadioOnClose = 16
    case radioName = 17
    case noVif = 18
    case freq = 19
    case pad = 20
    case txInfoFlags = 21
    case permAddr = 22
    case iftypeSupport = 23
    case cipherSupport = 24
    case mloSupport = 25
    case pmsrSupport = 26
    case pmsrRequest = 27
    case pmsrResult = 28
    case multiRadio = 29
    case supportNanDevice = 30
}
