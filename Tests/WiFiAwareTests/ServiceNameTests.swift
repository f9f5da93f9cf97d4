import Testing

@testable import WiFiAware

@Suite struct ServiceNameTests {
    @Test(arguments: ["_example-service._tcp", "_a._udp", "_x1._tcp", "_123456789abcdef._tcp", "_A-B-C._udp"])
    func acceptsValidNames(_ name: String) throws {
        let parsed = try WAServiceName(name)
        #expect(parsed.rawValue == name)
    }

    @Test func splitsLabelAndProtocol() throws {
        let name = try WAServiceName("_file-share._udp")
        #expect(name.label == "file-share")
        #expect(name.transportProtocol == .udp)
    }

    @Test(arguments: [
        ("_example._sctp", "must end in ._tcp or ._udp"),
        ("example._tcp", "must start with '_'"),
        ("__tcp", "must end in ._tcp"),
        ("_._tcp", "is empty"),
        ("_abcdefghijklmnop._tcp", "is 16 characters long; at most 15"),
        ("_file_share._tcp", "'_' is not allowed"),
        ("_file.share._tcp", "'.' is not allowed"),
        ("_caf\u{E9}._tcp", "'\u{E9}' is not allowed"),
        ("_12345._tcp", "at least one letter"),
        ("_-share._tcp", "must not begin or end with '-'"),
        ("_share-._udp", "must not begin or end with '-'"),
    ])
    func rejectsInvalidNamesSayingWhichRuleFailed(_ name: String, _ reason: String) {
        #expect {
            try WAServiceName(name)
        } throws: { error in
            guard let error = error as? WAError else { return false }
            return error.code == .invalidServiceName && error.message.contains(reason)
                && error.message.contains("'\(name)'")
        }
    }
}
