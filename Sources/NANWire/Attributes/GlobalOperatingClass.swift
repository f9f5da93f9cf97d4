/// A global operating class (IEEE 802.11 Annex E, "Global operating classes"): the band, the channel width and
/// the channel set that a NAN Channel Entry's bitmaps index.
///
/// Bit n of a Channel Entry's channel bitmap names the n-th channel of the class's channel set. For the
/// 80, 160 and 80+80 MHz classes the set lists channel centre frequency indices, and the Primary Channel
/// Bitmap picks the primary 20 MHz channel inside the block (bit n = the n-th 20 MHz channel from the
/// bottom). Only classes whose channel set fits the 16-bit bitmap are listed; ``init(_:)`` is nil for the
/// others, whose bitmaps are then shown as bit positions.
public struct GlobalOperatingClass: Hashable, Sendable, CustomStringConvertible {
    /// The operating class number.
    public let number: UInt8
    /// The band its channels are in.
    public let band: NANBandID
    /// Channel width in MHz (160 for 80+80, see ``isNonContiguous``).
    public let width: Int
    /// Whether the width is two non-contiguous 80 MHz blocks (80+80).
    public let isNonContiguous: Bool
    /// The channel set, in bitmap order.
    public let channels: [Int]

    /// Whether ``channels`` are centre frequency indices of wide blocks rather than 20 MHz (or 40 MHz
    /// primary) channels.
    public var channelsAreCentres: Bool { width >= 80 }

    /// The class with this number, or nil when it is not one this table knows.
    public init?(_ number: UInt8) {
        let known: (NANBandID, Int, Bool, [Int])
        switch number {
        case 81: known = (.band2_4GHz, 20, false, Array(1...13))
        case 82: known = (.band2_4GHz, 20, false, [14])
        case 83: known = (.band2_4GHz, 40, false, Array(1...9))
        case 84: known = (.band2_4GHz, 40, false, Array(5...13))
        case 115: known = (.band5GHz, 20, false, [36, 40, 44, 48])
        case 116: known = (.band5GHz, 40, false, [36, 44])
        case 117: known = (.band5GHz, 40, false, [40, 48])
        case 118: known = (.band5GHz, 20, false, [52, 56, 60, 64])
        case 119: known = (.band5GHz, 40, false, [52, 60])
        case 120: known = (.band5GHz, 40, false, [56, 64])
        case 121: known = (.band5GHz, 20, false, Array(stride(from: 100, through: 144, by: 4)))
        case 122: known = (.band5GHz, 40, false, [100, 108, 116, 124, 132, 140])
        case 123: known = (.band5GHz, 40, false, [104, 112, 120, 128, 136, 144])
        case 124: known = (.band5GHz, 20, false, [149, 153, 157, 161])
        case 125: known = (.band5GHz, 20, false, [149, 153, 157, 161, 165, 169, 173, 177])
        case 126: known = (.band5GHz, 40, false, [149, 157, 165, 173])
        case 127: known = (.band5GHz, 40, false, [153, 161, 169, 177])
        case 128: known = (.band5GHz, 80, false, [42, 58, 106, 122, 138, 155, 171])
        case 129: known = (.band5GHz, 160, false, [50, 114, 163])
        case 130: known = (.band5GHz, 160, true, [42, 58, 106, 122, 138, 155, 171])
        case 133: known = (.band6GHz, 80, false, Array(stride(from: 7, through: 215, by: 16)))
        case 134: known = (.band6GHz, 160, false, Array(stride(from: 15, through: 207, by: 32)))
        case 135: known = (.band6GHz, 160, true, Array(stride(from: 7, through: 215, by: 16)))
        case 136: known = (.band6GHz, 20, false, [2])
        default: return nil
        }
        self.number = number
        (band, width, isNonContiguous, channels) = known
    }

    /// `5 GHz, 80 MHz`.
    public var description: String {
        "\(band), \(isNonContiguous ? "80+80" : String(width)) MHz"
    }

    /// The centre frequency in MHz of channel `number` in this class's band.
    public func frequency(ofChannel number: Int) -> Int {
        switch band {
        case .band2_4GHz: return number == 14 ? 2484 : 2407 + 5 * number
        case .band6GHz: return number == 2 ? 5935 : 5950 + 5 * number
        default: return 5000 + 5 * number
        }
    }

    /// The channels a bitmap names, lowest bit first; nil when a set bit is past the end of the channel set.
    public func channels(inBitmap bitmap: UInt16) -> [Int]? {
        var list: [Int] = []
        for bit in setBits(bitmap) {
            guard bit < channels.count else { return nil }
            list.append(channels[bit])
        }
        return list
    }

    /// The 20 MHz channels of the block centred on `centre` (every 20 MHz channel of an 80 or 160 MHz
    /// block, or of one 80 MHz half of 80+80), lowest first; `[centre]` for classes of 20 or 40 MHz.
    public func twentyMHzChannels(ofBlockCentredOn centre: Int) -> [Int] {
        guard channelsAreCentres else { return [centre] }
        let blockWidth = isNonContiguous ? 80 : width
        let count = blockWidth / 20
        let lowest = centre - (blockWidth / 10 - 2)
        return (0..<count).map { lowest + 4 * $0 }
    }
}

/// The positions of the set bits of `value`, lowest first.
func setBits<T: FixedWidthInteger>(_ value: T) -> [Int] {
    (0..<T.bitWidth).filter { value & (T(1) << $0) != 0 }
}

extension ChannelEntry {
    /// The operating class, when ``GlobalOperatingClass`` knows it.
    public var globalOperatingClass: GlobalOperatingClass? { GlobalOperatingClass(operatingClass) }

    /// The channels the channel bitmap names (centre frequency indices for 80 MHz and wider classes);
    /// nil when the class is unknown or a bit is past its channel set.
    public var channels: [Int]? { globalOperatingClass?.channels(inBitmap: channelBitmap) }

    /// The positions of the set bits of the channel bitmap, for classes ``channels`` cannot name.
    public var channelBitmapPositions: [Int] { setBits(channelBitmap) }

    /// The primary 20 MHz channels the Primary Channel Bitmap picks inside the block(s) the channel bitmap
    /// names: bit n is the n-th 20 MHz channel from the bottom of each block. Empty when the bitmap is 0 (as
    /// senders leave it for 20 and 40 MHz classes, whose channel is itself primary); nil when the class or a
    /// bit is unknown.
    public var primaryChannels: [Int]? {
        guard let opClass = globalOperatingClass, let blocks = channels else { return nil }
        guard opClass.channelsAreCentres else { return primaryChannelBitmap == 0 ? [] : nil }
        var list: [Int] = []
        for block in blocks {
            let twenty = opClass.twentyMHzChannels(ofBlockCentredOn: block)
            for bit in setBits(primaryChannelBitmap) {
                guard bit < twenty.count else { return nil }
                list.append(twenty[bit])
            }
        }
        return list
    }

    /// The second 80 MHz blocks of an 80+80 MHz entry that the auxiliary channel bitmap names (centre
    /// frequency indices); nil without an auxiliary bitmap or when the class or a bit is unknown.
    public var auxiliaryChannels: [Int]? {
        guard let auxiliaryChannelBitmap else { return nil }
        return globalOperatingClass?.channels(inBitmap: auxiliaryChannelBitmap)
    }
}
