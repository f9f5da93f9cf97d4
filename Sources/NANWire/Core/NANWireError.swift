/// Why a NAN frame or attribute could not be decoded or encoded.
///
/// Every decoder in NANWire is total: bad input from the air ends in one of these errors, never in a trap.
/// `offset` is counted from the first byte handed to the decoder (the action body, or the 802.11 header
/// when the whole management frame was decoded), so a hex dump of the input shows where decoding stopped.
public struct NANWireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// A stable name for the kind, used in messages and tests.
        public let name: String
        init(_ name: String) { self.name = name }

        /// The input ended before a field that had to be there.
        public static let truncated = Kind("truncated")
        /// A length field claims more bytes than its container holds, or a body is longer than its layout allows.
        public static let overlong = Kind("overlong")
        /// A field holds a value the layout does not allow (reserved type, bad length for its kind, …).
        public static let outOfRange = Kind("out of range")
        /// An attribute or entry that may appear once appeared twice.
        public static let duplicate = Kind("duplicate")
        /// An attribute a frame must carry is missing.
        public static let missing = Kind("missing")
        /// The bytes are not the frame this decoder reads (wrong category, OUI, type or frame control).
        public static let notThisFrame = Kind("not this frame")
        /// A nested structure does not line up with its container (entries do not fill their list exactly).
        public static let malformed = Kind("malformed")
        /// A value is too large to encode in its length field.
        public static let tooLarge = Kind("too large to encode")

        /// The kind's name.
        public var description: String { name }
    }

    /// The class of failure.
    public let kind: Kind
    /// Byte offset of the offending field from the start of the decoder's input.
    public let offset: Int
    /// What was being read, e.g. "Service Descriptor attribute: matching filter".
    public let context: String

    /// Creates an error.
    public init(_ kind: Kind, at offset: Int, _ context: String) {
        self.kind = kind
        self.offset = offset
        self.context = context
    }

    /// One line a user can act on, e.g. `truncated at byte 17: Service Descriptor attribute: service info`.
    public var description: String { "\(kind) at byte \(offset): \(context)" }
}
