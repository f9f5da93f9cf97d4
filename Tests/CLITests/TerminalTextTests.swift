import Foundation
import Testing

@testable import waware

/// Text from peers and from hand-edited files reaches the terminal escaped; JSON stays valid.
@Suite struct TerminalTextTests {
    @Test func controlC1BidiZeroWidthAndLineBreaksAreEscaped() {
        let hostile = "a\u{1B}[2Jb\u{85}c\u{202E}d\u{200B}e\nf\\g"
        let escaped = TerminalText.escaped(hostile)
        #expect(escaped == #"a\u{1B}[2Jb\u{85}c\u{202E}d\u{200B}e\nf\\g"#)
        #expect(!escaped.unicodeScalars.contains { TerminalText.needsEscape($0) })
        #expect(TerminalText.escaped("Kitchen speaker ü") == "Kitchen speaker ü")
    }

    @Test func aServiceInfoWithBidiAndC1CharactersIsPrintedEscaped() {
        var record = DiscoveryRecord("discovered")
        record.setInfo(Array("ok\u{202E}lave\u{9B}31m\u{2028}discovered".utf8))
        let line = record.text
        #expect(!line.unicodeScalars.contains { TerminalText.needsEscape($0) })
        #expect(line.contains(#"ok\u{202E}lave\u{9B}31m\u{2028}discovered"#))
    }

    @Test func jsonLinesEscapeBidiAndC1AndStayValidJSON() throws {
        let value = ["name": "x\u{202E}y\u{9B}z\u{2028}"]
        let line = TerminalText.escapedJSON(try Output.json(value))
        #expect(!line.unicodeScalars.contains { TerminalText.needsEscape($0) })
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
        #expect(decoded == value)
    }
}
