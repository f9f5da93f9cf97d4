import Foundation
import Testing

@testable import WiFiAware

@Suite struct ServicesFileTests {
    private func registry(_ json: String) throws(WAError) -> WAServiceRegistry {
        try WAServiceRegistry(jsonData: Data(json.utf8))
    }

    private func expectInvalid(_ json: String, saying text: String) {
        #expect {
            try registry(json)
        } throws: { error in
            guard let error = error as? WAError else { return false }
            return error.code == .servicesFileInvalid && error.message.contains(text)
        }
    }

    @Test func readsRolesAndDefaults() throws {
        let services = try registry(
            """
            {"WiFiAwareServices": {
              "_file-share._tcp": {
                "Publishable": {"serviceInfo": "v=1", "matchFilter": ["photos", ""], "dataPath": true},
                "Subscribable": {}
              },
              "_chat._udp": {"Subscribable": {"serviceInfoHex": "00ff"}}
            }}
            """)
        #expect(services.publishableServices.keys.sorted() == ["_file-share._tcp"])
        #expect(services.subscribableServices.keys.sorted() == ["_chat._udp", "_file-share._tcp"])
        let publishable = try services.publishableService(named: "_file-share._tcp")
        #expect(publishable.id == "_file-share._tcp")
        #expect(publishable.serviceInfo == Array("v=1".utf8))
        #expect(publishable.matchFilter == [Array("photos".utf8), []])
        #expect(publishable.wantsDataPath)
        let subscribable = try services.subscribableService(named: "_file-share._tcp")
        #expect(subscribable.serviceInfo.isEmpty && subscribable.matchFilter.isEmpty && !subscribable.wantsDataPath)
        #expect(try services.subscribableService(named: "_chat._udp").serviceInfo == [0x00, 0xff])
    }

    @Test func undeclaredRoleIsServiceNotDeclared() throws {
        let services = try registry(#"{"WiFiAwareServices": {"_chat._udp": {"Subscribable": {}}}}"#)
        #expect {
            try services.publishableService(named: "_chat._udp")
        } throws: { error in
            guard let error = error as? WAError else { return false }
            return error.code == .serviceNotDeclared && error.message.contains("not declared Publishable")
        }
    }

    @Test func appleStyleCatchPatternMatchesTheCode() throws {
        let services = try registry(#"{"WiFiAwareServices": {"_chat._udp": {"Subscribable": {}}}}"#)
        let lookUp: () throws -> WAPublishableService = { try services.publishableService(named: "_other._tcp") }
        var caught = false
        do {
            _ = try lookUp()
        } catch WAError.serviceNotDeclared {
            caught = true
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(caught)
    }

    @Test func lookupOfAnInvalidNameSaysWhy() throws {
        let services = try registry(#"{"WiFiAwareServices": {}}"#)
        #expect(throws: WAError.self) { try services.publishableService(named: "chat") }
    }

    @Test func rejectsBadJSON() {
        expectInvalid("{not json", saying: "not valid JSON")
    }

    @Test func rejectsMissingRoot() {
        expectInvalid("{}", saying: "must have a 'WiFiAwareServices' object")
    }

    @Test func rejectsUnknownKeys() {
        expectInvalid(#"{"WiFiAwareServices": {"_a._tcp": {"Publishible": {}}}}"#, saying: "unknown key 'Publishible'")
        expectInvalid(
            #"{"WiFiAwareServices": {"_a._tcp": {"Publishable": {"datapath": true}}}}"#,
            saying: "unknown key 'datapath'")
    }

    @Test func rejectsAServiceWithNoRole() {
        expectInvalid(
            #"{"WiFiAwareServices": {"_a._tcp": {}}}"#, saying: "at least one of 'Publishable' or 'Subscribable'")
    }

    @Test func rejectsInvalidServiceNames() {
        expectInvalid(#"{"WiFiAwareServices": {"_a_b._tcp": {"Publishable": {}}}}"#, saying: "'_' is not allowed")
    }

    @Test func rejectsNamesDifferingOnlyInCase() {
        expectInvalid(
            #"{"WiFiAwareServices": {"_Chat._tcp": {"Publishable": {}}, "_chat._tcp": {"Publishable": {}}}}"#,
            saying: "differ only in case")
    }

    @Test func rejectsWrongTypesNamingThePlace() {
        expectInvalid(
            #"{"WiFiAwareServices": {"_a._tcp": {"Publishable": {"dataPath": "yes"}}}}"#,
            saying: "_a._tcp > Publishable > dataPath: expected true or false")
    }

    @Test func rejectsOversizedServiceInfoAndFilters() {
        let long = String(repeating: "x", count: 256)
        expectInvalid(
            #"{"WiFiAwareServices": {"_a._tcp": {"Publishable": {"serviceInfo": "\#(long)"}}}}"#,
            saying: "256 bytes; at most 255")
        let filter = (0..<2).map { _ in "\"" + String(repeating: "y", count: 127) + "\"" }.joined(separator: ",")
        expectInvalid(
            #"{"WiFiAwareServices": {"_a._tcp": {"Publishable": {"matchFilter": [\#(filter)]}}}}"#,
            saying: "encodes to 256 bytes")
    }

    @Test func rejectsBadHexAndBothInfoKinds() {
        expectInvalid(
            #"{"WiFiAwareServices": {"_a._tcp": {"Publishable": {"serviceInfoHex": "+f"}}}}"#,
            saying: "not an even number of hex digits")
        expectInvalid(
            #"{"WiFiAwareServices": {"_a._tcp": {"Publishable": {"serviceInfo": "a", "serviceInfoHex": "61"}}}}"#,
            saying: "not both")
    }

    @Test func loadsFromAnExplicitPathAndNamesItInErrors() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("services.json")
            try Data(#"{"WiFiAwareServices": {"_a._tcp": {"Publishable": {}}}}"#.utf8).write(to: file)
            let services = try WAServiceRegistry.load(from: file)
            #expect(services.source == file)
            #expect(services.publishableServices["_a._tcp"] != nil)
            #expect {
                try services.subscribableService(named: "_a._tcp")
            } throws: { ($0 as? WAError)?.message.contains(file.path) == true }

            try Data("[]".utf8).write(to: file)
            #expect {
                try WAServiceRegistry.load(from: file)
            } throws: { ($0 as? WAError)?.message.hasPrefix("services file \(file.path):") == true }
        }
    }

    @Test func missingFileIsServicesFileNotFound() async throws {
        try await withTemporaryDirectory { folder in
            let missing = folder.appendingPathComponent("nope.json")
            #expect {
                try WAServiceRegistry.load(from: missing)
            } throws: { error in
                guard let error = error as? WAError else { return false }
                return error.code == .servicesFileNotFound && error.message.contains(missing.path)
            }
            #expect {
                try WAServiceRegistry.loadDefault(environment: ["WAWARE_SERVICES": missing.path])
            } throws: { ($0 as? WAError)?.code == .servicesFileNotFound }
        }
    }

    @Test func defaultSearchOrder() {
        #expect(
            WAServiceRegistry.defaultSearchPaths(environment: ["WAWARE_SERVICES": "/x/s.json", "HOME": "/home/u"])
                .map(\.path) == ["/x/s.json"])
        #expect(
            WAServiceRegistry.defaultSearchPaths(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"])
                .map(\.path) == ["/cfg/waware/services.json", "/etc/waware/services.json"])
        #expect(
            WAServiceRegistry.defaultSearchPaths(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"])
                .map(\.path) == ["/home/u/.config/waware/services.json", "/etc/waware/services.json"])
        #expect(WAServiceRegistry.defaultSearchPaths(environment: [:]).map(\.path) == ["/etc/waware/services.json"])
    }

    @Test func loadDefaultUsesTheFirstFileThatExists() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("waware/services.json")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"WiFiAwareServices": {"_b._udp": {"Subscribable": {}}}}"#.utf8).write(to: file)
            let services = try WAServiceRegistry.loadDefault(environment: ["XDG_CONFIG_HOME": folder.path])
            #expect(services.source?.path == file.path)
            #expect(services.subscribableServices["_b._udp"] != nil)
        }
    }
}
