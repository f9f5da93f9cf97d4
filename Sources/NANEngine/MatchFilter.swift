/// A NAN matching filter: an ordered list of byte strings, where an empty element matches anything.
///
/// A publish sends its transmit filter and compares a subscriber's filter with its receive filter;
/// a subscribe does the same the other way round.
public struct MatchFilter: Hashable, Sendable {
    /// The elements, in order. An empty element is a wildcard.
    public var elements: [[UInt8]]

    /// Makes a filter from its elements.
    public init(_ elements: [[UInt8]]) { self.elements = elements }

    /// Whether a filter received from a peer satisfies this (local, receive) filter.
    ///
    /// Every element of this filter must be a wildcard, or be matched by the peer's element at the same
    /// position, which may itself be a wildcard. A peer filter that is shorter than this one fails on the
    /// missing positions unless this filter's element there is a wildcard.
    public func accepts(_ received: MatchFilter?) -> Bool {
        let remote = received?.elements ?? []
        for (index, element) in elements.enumerated() where !element.isEmpty {
            guard index < remote.count else { return false }
            let theirs = remote[index]
            if !theirs.isEmpty && theirs != element { return false }
        }
        return true
    }

    /// Parses the command-line form: elements separated by `,`; `*` or nothing stands for a wildcard.
    ///
    /// `"red,*,blue"` gives three elements, the middle one a wildcard.
    public init(parsing text: String) {
        self.elements = text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            part == "*" ? [] : Array(part.utf8)
        }
    }
}
