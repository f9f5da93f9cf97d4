extension NL80211Session {
    /// The regulatory domains in force: the global one first (``RegulatoryDomain/wiphy`` `nil`), then the
    /// private domain of each radio that has one (`NL80211_CMD_GET_REG` dump).
    public func regulatoryDomains() async throws -> [RegulatoryDomain] {
        let reply = try await send(try .getRegulatoryDump())
        return try RegulatoryDomain.domains(from: reply.messages)
    }

    /// Every radio's channels as the regulatory rules leave them (enabled, no-IR, disabled), by wiphy.
    public func radioChannels() async throws -> [WiphyIndex: [RadioChannel]] {
        let reply = try await send(try .getWiphyDump())
        return try RadioChannel.channels(fromWiphyMessages: reply.messages)
    }
}
