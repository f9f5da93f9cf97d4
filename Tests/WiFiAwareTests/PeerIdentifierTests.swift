import Foundation
import Testing

@testable import WiFiAware

/// This device's peer identifier: made once, saved 0600 beside the store, and the same for every program
/// that starts at the same time.
@Suite struct PeerIdentifierTests {
    @Test func theConnectionInitiatedByTheSmallerIdentifierSurvivesOnBothSides() throws {
        let small = WAPeerIdentifier(uuid: try #require(UUID(uuidString: "00000000-0000-0000-0000-0000000000FF")))
        let large = WAPeerIdentifier(uuid: try #require(UUID(uuidString: "01000000-0000-0000-0000-000000000000")))
        // Byte order, first byte first (not the last bytes, not the text).
        #expect(small < large)
        // Each side asks about its own connection against the other's: they agree on one survivor.
        #expect(WAPeerIdentifier.survives(initiatedBy: small, against: large))
        #expect(!WAPeerIdentifier.survives(initiatedBy: large, against: small))
    }

    @Test func anAppSuppliedIdentifierIsWhatConnectionsPresent() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            var parameters = WAConnectionParameters(dataPathSecurity: .open)
            let persisted = try parameters.localPeer(for: store)
            #expect(persisted == (try WAPeerIdentifier.local(for: store)))
            let supplied = WAPeerIdentifier(uuid: UUID())
            parameters.peerIdentifier = supplied
            #expect(try parameters.localPeer(for: store) == supplied)
        }
    }

    @Test func theFirstUseSavesOneIdentifierThatLaterUsesRead() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            let made = try WAPeerIdentifier.local(for: store)
            #expect(try WAPeerIdentifier.local(for: store) == made)
            #expect(try permissions(of: folder.appendingPathComponent("peer-id")) == 0o600)
        }
    }

    @Test func programsStartingTogetherAgreeOnOneIdentifier() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("devices.json")
            // Each task stands for a program: its own store value, its own lock file descriptor.
            let made = try await withThrowingTaskGroup(of: WAPeerIdentifier.self) { group in
                for _ in 0..<8 { group.addTask { try WAPeerIdentifier.local(for: WADeviceStore(url: url)) } }
                var all: [WAPeerIdentifier] = []
                for try await identifier in group { all.append(identifier) }
                return all
            }
            #expect(Set(made).count == 1)
            #expect(try WAPeerIdentifier.local(for: WADeviceStore(url: url)) == made.first)
        }
    }

    @Test func aFileThatIsNotAUUIDIsReportedNotReplaced() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("peer-id")
            try Data("not a uuid\n".utf8).write(to: path)
            #expect {
                _ = try WAPeerIdentifier.local(for: WADeviceStore(url: folder.appendingPathComponent("devices.json")))
            } throws: {
                ($0 as? WAError)?.code == .deviceStoreCorrupt
            }
            #expect(try String(contentsOf: path, encoding: .utf8) == "not a uuid\n")
        }
    }
}
