/// Why a NAN frame or attribute could not be decoded or encoded.
///
/// Every decoder in NANWire is total: bad input from the air ends in one of these errors, never in a trap.
/// `offset` is counted from the first byte handed to the decoder (the action body, or the 802.11 header
/// when the whole management frame was decoded), so a hex dump of the input shows where decoding stopped.
public struct NANWireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case truncated, overlong, outOfRange, duplicate, missing, notThisFrame, malformed, tooLarge
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// The input ended before a field that had to be there.
        public static var truncated: Kind { Kind(.truncated) }
        /// A length field claims more bytes than its container holds, or a body is longer than its layout allows.
        public static var overlong: Kind { Kind(.overlong) }
        /// A field holds a value the layout does not allow (reserved type, bad length for its kind, …).
        public static var outOfRange: Kind { Kind(.outOfRange) }
        /// An attribute or entry that may appear once appeared twice.
        public static var duplicate: Kind { Kind(.duplicate) }
        /// An attribute a frame must carry is missing.
        public static var missing: Kind { Kind(.missing) }
        /// The bytes are not the frame this decoder reads (wrong category, OUI, type or frame control).
        public static var notThisFrame: Kind { Kind(.notThisFrame) }
        /// A nested structure does not line up with its container (entries do not fill their list exactly).
        public static var malformed: Kind { Kind(.malformed) }
        /// A value is too large to encode in its length field.
        public static var tooLarge: Kind { Kind(.tooLarge) }

        /// A stable name for the kind, used in messages: `truncated`, `out of range`, ...
        public var name: String {
            switch wrapped {
            case .truncated: "truncated"
            case .overlong: "overlong"
            case .outOfRange: "out of range"
            case .duplicate: "duplicate"
            case .missing: "missing"
            case .notThisFrame: "not this frame"
            case .malformed: "malformed"
            case .tooLarge: "too large to encode"
            }
        }

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
