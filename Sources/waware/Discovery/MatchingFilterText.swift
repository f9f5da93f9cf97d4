import NANWire

/// The CLI's text form of a matching filter (`--match`, `--tx-match`): a command-line parser, so it lives
/// in the CLI and not in the libraries.
extension MatchingFilter {
    /// Parses the command-line form of a matching filter: elements separated by `,`, where `*` (or
    /// nothing) is a wildcard. `"red,*,blue"` gives three elements, the middle one a wildcard.
    ///
    /// - Throws: `NANWireError` if the filter does not fit in 255 bytes.
    init(text: String) throws(NANWireError) {
        let elements = text.split(separator: ",", omittingEmptySubsequences: false).map { part in
            part == "*" ? [] : Array(part.utf8)
        }
        try self.init(elements: elements)
    }
}
