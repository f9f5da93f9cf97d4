import NANSystem

/// The work behind `waware sim add|list|remove`, through NANSystem's hwsim client.
@_spi(Tools) public enum Simulator {
    /// Creates a radio per name (nil: hwsim names it) with `channels` channels, NAN unless `nan` is false,
    /// removed when waware exits with `temporary` (then it waits for SIGINT/SIGTERM); on any failure removes
    /// the ones this command created, so nothing is left half done.
    /// - Throws: ``WAError`` `hwsimWithoutNAN` when the kernel's mac80211_hwsim cannot simulate NAN.
    public static func add(
        radioNames: [String?], channels: Int, nan: Bool, temporary: Bool, json: Bool, output: some ToolOutput
    ) async throws {
        try await HWSim.withSession { hwsim in
            var created: [HWSimRadioID] = []
            do {
                for name in radioNames {
                    let configuration = HWSimRadioConfiguration(
                        name: name, channels: UInt32(channels), supportsNAN: nan, destroyOnClose: temporary)
                    created.append(try await hwsim.addRadio(configuration))
                }
                let reports = try await reports(hwsim, only: Set(created))
                if nan, let withoutNAN = reports.first(where: { !$0.nan }) {
                    throw WAError(
                        .hwsimWithoutNAN,
                        message: "radio \(withoutNAN.id) (\(withoutNAN.name ?? "?")) was created without NAN: this "
                            + "kernel's mac80211_hwsim cannot simulate NAN; it needs Linux 7.2 or newer")
                }
                try write(reports, "created ", json: json, output: output)
            } catch {
                for id in created { try? await hwsim.removeRadio(id) }
                throw error
            }

            guard temporary else { return }
            if !json { output.write("the radios last until waware exits; Ctrl-C to remove them") }
            try await SignalCancellation.run {
                // Sleep until SIGINT/SIGTERM cancels this task: that is the normal end here.
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
            if !json {
                try write(try await reports(hwsim, only: Set(created)), "removing ", json: false, output: output)
            }
        }
    }

    /// Prints every simulated radio.
    public static func list(json: Bool, output: some ToolOutput) async throws {
        try await HWSim.withSession { hwsim in
            let radios = try await reports(hwsim, only: nil)
            if radios.isEmpty && !json {
                output.write(
                    "no simulated radios in this network namespace (\(Self.otherNamespaces); create some with 'waware sim add')"
                )
            } else {
                try write(radios, "", json: json, output: output)
            }
        }
    }

    /// Removes one radio (`reference`: its id or name) or all of them (`all`).
    public static func remove(_ reference: String, json: Bool, output: some ToolOutput) async throws {
        try await HWSim.withSession { hwsim in
            let radios = try await reports(hwsim, only: nil)
            let chosen = reference == "all" ? radios : [try select(reference, from: radios)]
            if chosen.isEmpty && !json {
                output.write("no simulated radios to remove in this network namespace (\(Self.otherNamespaces))")
            }
            for radio in chosen { try await hwsim.removeRadio(HWSimRadioID(rawValue: radio.id)) }
            try write(chosen, "removed ", json: json, output: output)
        }
    }

    /// Prints `radios` as one JSON object, or one line each after `verb` (`created `, `removed `).
    private static func write(_ radios: [SimRadioReport], _ verb: String, json: Bool, output: some ToolOutput) throws {
        if json { return try output.writeJSON(SimRadioList(radios: radios)) }
        for line in SimRadioReport.lines(radios) { output.write(verb + line) }
    }

    /// hwsim lists only the radios of the caller's network namespace.
    static let otherNamespaces =
        "radios moved to other network namespaces are not visible from here; run this in their namespace, e.g. 'ip netns exec NAME waware sim list'"

    /// The radio `reference` names: a radio id, or a radio (phy) name.
    /// - Throws: ``WAError`` `adapterNotFound` listing the radios.
    static func select(_ reference: String, from radios: [SimRadioReport]) throws(WAError) -> SimRadioReport {
        if let match = radios.first(where: { $0.name == reference }) { return match }
        if let id = UInt32(reference), let match = radios.first(where: { $0.id == id }) { return match }
        let known =
            radios.isEmpty
            ? "there are none in this network namespace; \(otherNamespaces)"
            : "radios: " + radios.map { "\($0.id) \($0.name ?? "")" }.joined(separator: ", ")
        throw WAError(.adapterNotFound, message: "no simulated radio '\(reference)' (\(known))")
    }

    /// The simulated radios in this network namespace (only those in `only`, when given), by id.
    private static func reports(_ hwsim: HWSimSession, only: Set<HWSimRadioID>?) async throws -> [SimRadioReport] {
        try await hwsim.radios()
            .filter { only?.contains($0.id) ?? true }
            .sorted { $0.id.rawValue < $1.id.rawValue }
            .map { radio in
                SimRadioReport(
                    id: radio.id.rawValue, name: radio.name, nan: radio.supportsNAN,
                    channels: radio.channels.map(Int.init))
            }
    }
}
