import Testing
import WiFiAware

@testable import waware

// `waware pair --cipher-suite 128|256`: NCS-PK-PASN-128 by default, a clear error for anything else.

@Test func pairCipherSuiteDefaultsTo128AndTakes256() throws {
    func parse(_ words: [String]) throws -> PairCommand? {
        guard case .run(let parsed, _) = try CommandLineParser.parse(words, root: Waware.self) else {
            throw ValidationError("no run")
        }
        return parsed as? PairCommand
    }
    #expect(try parse(["pair"])?.cipherSuite == .ncsPKPASN128)
    #expect(try parse(["pair", "--cipher-suite", "256"])?.cipherSuite == .ncsPKPASN256)
    #expect(try parse(["pair", "--pin", "123456", "--cipher-suite", "NCS-PK-PASN-128"])?.cipherSuite == .ncsPKPASN128)
    #expect(throws: ValidationError.self) { _ = try parse(["pair", "--cipher-suite", "512"]) }
}
