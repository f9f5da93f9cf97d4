import FoundationEssentials
import NANSystem

/// The work behind `waware events`: print nl80211 events, optionally of one adapter, until cancelled.
enum EventWatch {
    /// Opens a session (which joins the "config" and "nan" multicast groups) and prints what arrives.
    static func run(_ command: EventsCommand, output: Output) async throws {
        try await NL80211.withSession { session in
            let adapters = try await session.adapters()
            var phyNames = Dictionary(adapters.map { ($0.wiphy.rawValue, $0.name) }, uniquingKeysWith: { a, _ in a })
            var only: WiphyIndex?
            if let reference = command.adapter {
                let report = try AdapterSelection.select(reference, from: adapters.map(AdapterReport.init))
                only = WiphyIndex(rawValue: report.wiphy)
            }
            let scope = only.flatMap { phyNames[$0.rawValue] } ?? "all adapters"
            if !command.json { output.write("watching NAN events of \(scope); Ctrl-C to stop") }

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
                if command.json { try output.writeJSON(record) } else { output.write(record.line) }
                if case .wiphyRemoved(let removed) = event, removed == only {
                    throw CommandFailure("\(scope) was removed", code: .deviceRemoved)
                }
            }
        }
    }

    /// The current time as ISO 8601 with milliseconds, in UTC.
    static func timestamp(_ date: Date = Date()) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
