import NANEngine
import NANWire
import Testing

@testable import WiFiAware

/// Every way the engine can end a data path reaches the API as its own enumerated kind, under the name the
/// CLI prints, so that a program matches kinds and never names.
@Suite struct DataPathEndReasonTests {
    @Test func everyEngineKindMapsToTheAPIKindOfTheSameName() {
        for kind in DataPathEndReason.Kind.allCases {
            let reason = WADataPathEndReason(DataPathEndReason(kind))
            #expect(reason.name == kind.rawValue)
        }
        #expect(WADataPathEndReason.Kind.allCases.count == DataPathEndReason.Kind.allCases.count)
    }

    @Test func aSecurityPolicyReasonCodeCountsAsASecurityFailure() {
        let rejected = WADataPathEndReason(DataPathEndReason(.rejected, code: .securityPolicy))
        #expect(rejected.kind == .rejected && rejected.isSecurityFailure)
        #expect(!WADataPathEndReason(DataPathEndReason(.timeout)).isSecurityFailure)
        #expect(WADataPathEndReason(DataPathEndReason(.securityFailure)).isSecurityFailure)
    }
}
