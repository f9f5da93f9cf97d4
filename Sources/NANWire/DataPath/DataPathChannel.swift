/// A 20 MHz channel a data link can use: its frequency and how NAN frames name it (global operating
/// class and the channel's bit in that class's channel list).
public struct DataPathChannel: Hashable, Sendable, CustomStringConvertible {
    /// Centre frequency in MHz.
    public var frequency: Int
    /// The channel number.
    public var number: Int
    /// Global operating class (81: 2.4 GHz 20 MHz; 115: 5 GHz 36–48; 124: 5 GHz 149–161).
    public var operatingClass: UInt8
    /// The channel's bit in the operating class's channel bitmap.
    public var channelBitmap: UInt16

    /// Creates a channel.
    public init(frequency: Int, number: Int, operatingClass: UInt8, channelBitmap: UInt16) {
        self.frequency = frequency
        self.number = number
        self.operatingClass = operatingClass
        self.channelBitmap = channelBitmap
    }

    /// 2.4 GHz channel 6 (2437 MHz), the NAN social channel.
    public static let channel6 = DataPathChannel(frequency: 2437, number: 6, operatingClass: 81, channelBitmap: 1 << 5)
    /// 5 GHz channel 44 (5220 MHz).
    public static let channel44 = DataPathChannel(
        frequency: 5220, number: 44, operatingClass: 115, channelBitmap: 1 << 2)
    /// 5 GHz channel 149 (5745 MHz), the 5 GHz NAN discovery channel.
    public static let channel149 = DataPathChannel(
        frequency: 5745, number: 149, operatingClass: 124, channelBitmap: 1 << 0)

    /// The 20 MHz 5 GHz channels outside the DFS range that a peer may commit (UNII-1: 36–48, operating class
    /// 115; UNII-3: 149–161, class 124, and 165, class 125), in that order. Deployed stacks schedule data
    /// links on them (wpa_supplicant's own tests use channel 36); the regulatory domain decides which the
    /// kernel takes.
    public static let nonDFS5GHz: [DataPathChannel] =
        [36, 40, 44, 48].enumerated().map {
            DataPathChannel(
                frequency: 5000 + 5 * $0.element, number: $0.element, operatingClass: 115,
                channelBitmap: 1 << UInt16($0.offset))
        }
        + [149, 153, 157, 161].enumerated().map {
            DataPathChannel(
                frequency: 5000 + 5 * $0.element, number: $0.element,
                operatingClass: 124, channelBitmap: 1 << UInt16($0.offset))
        }
        + [DataPathChannel(frequency: 5825, number: 165, operatingClass: 125, channelBitmap: 1 << 4)]

    /// Whether the channel is in the 5 GHz band.
    public var is5GHz: Bool { frequency >= 5000 }

    /// `ch 6 (2437 MHz)`.
    public var description: String { "ch \(number) (\(frequency) MHz)" }

    /// The NAN Channel Entry as availability attributes carry it.
    public var channelEntry: ChannelEntry {
        ChannelEntry(operatingClass: operatingClass, channelBitmap: channelBitmap, primaryChannelBitmap: 0)
    }

    /// The 6-byte NAN Channel Entry the kernel wants (operating class, channel bitmap, primary bitmap,
    /// auxiliary bitmap, little-endian).
    public var kernelChannelEntry: [UInt8] {
        [operatingClass, UInt8(channelBitmap & 0xff), UInt8(channelBitmap >> 8), 0, 0, 0]
    }

    /// The 20 MHz channels of the operating classes we understand, by (class, channel index in the class).
    /// A peer's channel entry resolves to the first channel its bitmap names (or its primary channel for
    /// wider classes).
    public init?(_ entry: ChannelEntry) {
        let channels: [Int]
        switch entry.operatingClass {
        case 81: channels = Array(1...13)
        case 115: channels = [36, 40, 44, 48]
        case 116: channels = [36, 44]
        case 117: channels = [40, 48]
        case 118: channels = [52, 56, 60, 64]
        case 121: channels = [100, 104, 108, 112, 116, 120, 124, 128, 132, 136, 140, 144]
        case 124: channels = [149, 153, 157, 161]
        case 125: channels = [149, 153, 157, 161, 165, 169, 173, 177]
        case 126: channels = [149, 157, 165, 173]
        case 127: channels = [153, 161, 169, 177]
        case 128: channels = [42, 58, 106, 122, 138, 155, 171]
        default: return nil
        }
        guard let index = (0..<16).first(where: { (bit: Int) in entry.channelBitmap & UInt16(1 << bit) != 0 }),
            index < channels.count
        else {
            return nil
        }
        var number = channels[index]
        if entry.operatingClass == 128 {
            // 80 MHz block: the primary channel bitmap picks one of its four 20 MHz channels (lowest if none).
            let lowest = number - 6
            let primary: Int =
                (0..<4).first(where: { (bit: Int) in entry.primaryChannelBitmap & UInt8(1 << bit) != 0 }) ?? 0
            number = lowest + 4 * primary
        }
        let frequency = number <= 14 ? 2407 + 5 * number : 5000 + 5 * number
        self.init(
            frequency: frequency, number: number, operatingClass: entry.operatingClass,
            channelBitmap: entry.channelBitmap)
    }
}
