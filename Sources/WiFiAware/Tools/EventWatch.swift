import FoundationEssentials
import NANSystem

/// The work behind `waware events`: print nl80211 events, optionally of one adapter, until cancelled.
@_spi(Tools) public enum EventWatch {
    /// Opens a session (which joins the "config" and "nan" multicast groups) and prints what arrives, of the
    /// adapter `reference` names (all adapters when nil), as text or, with `json`, one JSON object per line.
    /// - Throws: ``WAError`` `deviceRemoved` when the adapter watched is removed; what the session throws.
    public static func run(adapter reference: String?, json: Bool, output: some ToolOutput) async throws {
        try await NL80211.withSession { session in
            let adapters = try await session.adapters()
            var phyNames = Dictionary(adapters.map { ($0.wiphy.rawValue, $0.name) }, uniquingKeysWith: { a, _ in a })
            var only: WiphyIndex?
            if let reference { only = try AdapterSelection.select(reference, from: adapters).wiphy }
            let scope = only.flatMap { phyNames[$0.rawValue] } ?? "all adapters"
            if !json { output.write("watching NAN events of \(scope); Ctrl-C to stop") }

            for try await event in session.events {
                let wiphy = EventRecord.wiphy(of: event)
                if let only, let wiphy, wiphy != only { continue }
                if case .interfaceAdded(let interface) = event, phyNames[interface.wiphy.rawValue] == nil {
                    // A radio added after we started: learn its name for later events.
                    if let name = try? await session.adapters().first(where: { $0.wiphy == interface.wiphy })?.name {
                        phyNames[interface.wiphy.rawValue] = name
                    }
                }
                var record = EventRecord(event, phyNames: phyNames)
                record.time = timestamp()
                if json { try output.writeJSON(record) } else { output.write(record.line) }
                if case .wiphyRemoved(let removed) = event, removed == only {
                    throw WAError(.deviceRemoved, message: "\(scope) was removed")
                }
            }
        }
    }

    /// The current time as ISO 8601 with milliseconds, in UTC.
    static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
