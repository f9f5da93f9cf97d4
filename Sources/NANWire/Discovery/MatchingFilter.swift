/// A matching filter: an ordered list of length-value elements (Wi-Fi Aware "Matching Filter").
///
/// An element of length 0 is a wildcard. The filter keeps its validated wire bytes (a slice of the frame
/// when decoded, so no copy); ``elements`` splits them on demand.
public struct MatchingFilter: Hashable, Sendable, CustomStringConvertible {
    /// The wire form: `len value len value …` (at most 255 bytes).
    public let bytes: ArraySlice<UInt8>

    /// Builds a filter from elements; throws if the encoded filter exceeds 255 bytes or an element 255.
    public init(elements: [[UInt8]]) throws(NANWireError) {
        var writer = ByteWriter(capacity: 32)
        for element in elements { try writer.writeLV8(element, "matching filter element") }
        guard writer.count <= 255 else {
            throw NANWireError(.tooLarge, at: 0, "matching filter: \(writer.count) bytes, at most 255 fit")
        }
        bytes = writer.bytes[...]
    }

    /// Validates wire bytes: each element's length must fit in what is left.
    public init(validating bytes: ArraySlice<UInt8>, origin: Int? = nil) throws(NANWireError) {
        var reader = ByteReader(bytes, origin: origin)
        while !reader.isAtEnd {
            let length = Int(try reader.readU8("matching filter element length"))
            guard length <= reader.remaining else {
                throw NANWireError(
                    .overlong, at: reader.offset - 1,
                    "matching filter element length \(length) exceeds the \(reader.remaining) bytes left")
            }
            _ = try reader.readBytes(length, "matching filter element")
        }
        guard bytes.count <= 255 else {
            throw NANWireError(.tooLarge, at: 0, "matching filter: \(bytes.count) bytes, at most 255 fit")
        }
        self.bytes = bytes
    }

    /// The elements in order; an empty element is a wildcard.
    public var elements: [ArraySlice<UInt8>] {
        // Validated at construction, so the reads cannot fail.
        var reader = ByteReader(bytes)
        return (try? reader.readToEnd { r throws(NANWireError) in try r.readLV8("matching filter element") }) ?? []
    }

    /// Whether the filter has no elements at all.
    public var isEmpty: Bool { bytes.isEmpty }

    /// Elements as hex, `*` for wildcards.
    public var description: String {
        "["
            + elements.map { e in
                e.isEmpty ? "*" : Hex.string(e)
            }.joined(separator: ", ") + "]"
    }

    /// Equality by the listed bytes (not by slice indices).
    public static func == (lhs: MatchingFilter, rhs: MatchingFilter) -> Bool { lhs.bytes.elementsEqual(rhs.bytes) }
    /// Hashes the listed bytes.
    public func hash(into hasher: inout Hasher) { for b in bytes { hasher.combine(b) } }

    /// Whether a subscriber's filter and a publisher's filter match.
    ///
    /// Use it in both directions of discovery:
    /// - a subscriber receiving a publish compares its `matching_filter_rx` (as `subscriber`) with the
    ///   filter carried in the publish (as `publisher`);
    /// - a publisher receiving a subscribe compares the filter carried in the subscribe (as `subscriber`)
    ///   with its own `matching_filter_rx` (as `publisher`).
    ///
    /// Rules (the behaviour of hostap's `nan_de_filter_match`, which we interoperate with):
    /// - no subscriber filter, or one with no elements, matches anything;
    /// - with no publisher filter, only a subscriber filter made of wildcards matches;
    /// - the subscriber's list may not be longer than the publisher's (a publisher filter with no
    ///   elements counts as one wildcard);
    /// - at each position the elements must be equal unless either is empty (a wildcard).
    public static func matches(subscriber: MatchingFilter?, publisher: MatchingFilter?) -> Bool {
        guard let subscriber, !subscriber.isEmpty else { return true }
        let s = subscriber.elements
        guard let publisher else { return s.allSatisfy(\.isEmpty) }
        let p = publisher.elements
        guard s.count <= max(p.count, 1) else { return false }
        for (i, se) in s.enumerated() where !se.isEmpty && i < p.count && !p[i].isEmpty {
            if !se.elementsEqual(p[i]) { return false }
        }
        return true
    }
}
