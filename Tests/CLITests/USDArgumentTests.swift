import Testing

@testable import waware

// --usd asks for unsynchronized service discovery; without it publish and subscribe choose automatically.

private func parse(_ words: [String]) throws -> any Command {
    guard case .run(let parsed, _) = try CommandLineParser.parse(words, root: Waware.self) else {
        throw ValidationError("no run")
    }
    return parsed
}

@Test func publishAndSubscribeAreAutomaticUnlessUSDIsAskedFor() throws {
    func transport(_ words: [String]) throws -> String? {
        switch try parse(words) {
        case let command as SubscribeCommand: String(describing: command.values.transport)
        case let command as PublishCommand: String(describing: command.values.transport)
        default: nil
        }
    }
    #expect(try transport(["subscribe", "_chat._tcp"]) == "automatic")
    #expect(try transport(["subscribe", "_chat._tcp", "--usd"]) == "unsynchronized")
    #expect(try transport(["publish", "_chat._tcp", "--usd"]) == "unsynchronized")
}

@Test func aDataPathOverUSDIsRefusedBeforeAnythingStarts() {
    #expect(throws: ValidationError.self) { try parse(["publish", "_chat._tcp", "--usd", "--data-path"]) }
    #expect(throws: ValidationError.self) {
        try parse(["subscribe", "_chat._tcp", "--usd", "--data-path", "--open"])
    }
}
