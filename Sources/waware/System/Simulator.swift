import NANSystem

/// The work behind `waware sim add|list|remove`, through NANSystem's hwsim client.
enum Simulator {
    /// Creates the radios; on any failure removes the ones this command created, so nothing is left half done.
    static func add(_ command: SimAddCommand, output: Output) async throws {
        try await HWSim.withSession { hwsim in
            var created: [HWSimRadioID] = []
            do {
                for name in command.radioNames {
                    let configuration = HWSimRadioConfiguration(
                        name: name, channels: UInt32(command.channels), supportsNAN: command.nan,
                        destroyOnClose: command.temporary)
                    created.append(try await hwsim.addRadio(configuration))
                }
                let reports = try await reports(hwsim, only: Set(created))
                if command.nan, let withoutNAN = reports.first(where: { !$0.nan }) {
                    throw CommandFailure(
                        "radio \(withoutNAN.id) (\(withoutNAN.name ?? "?")) was created without NAN: this kernel's "
                            + "mac80211_hwsim cannot simulate NAN; it needs Linux 7.2 or newer",
                        code: .hwsimWithoutNAN)
                }
                if command.json {
                    try output.writeJSON(SimRadioList(radios: reports))
                } else {
                    for line in SimRadioReport.lines(reports) { output.write("created " + line) }
                }
            } catch {
                for id in created { try? await hwsim.removeRadio(id) }
                throw error
            }

            guard command.temporary else { return }
            if !command.json { output.write("the radios last until waware exits; Ctrl-C to remove them") }
            try await SignalCancellation.run {
                // Sleep until SIGINT/SIGTERM cancels this task: that is the normal end here.
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
            if !command.json {
                for line in SimRadioReport.lines(try await reports(hwsim, only: Set(created))) {
                    output.write("removing " + line)
                }
            }
        }
    }

    /// Prints every simulated radio.
    static func list(_ command: SimListCommand, output: Output) async throws {
        try await HWSim.withSession { hwsim in
            let radios = try await reports(hwsim, only: nil)
            if command.json {
                try output.writeJSON(SimRadioList(radios: radios))
            } else if radios.isEmpty {
                output.write(
                    "no simulated radios in this network namespace (\(Self.otherNamespaces); create some with 'waware sim add')"
                )
            } else {
                for line in SimRadioReport.lines(radios) { output.write(line) }
            }
        }
    }

    /// Removes one radio (by id or name) or all of them.
    static func remove(_ command: SimRemoveCommand, output: Output) async throws {
        try await HWSim.withSession { hwsim in
            let radios = try await reports(hwsim, only: nil)
            let chosen: [SimRadioReport]
            if command.radio == "all" {
                chosen = radios
            } else {
                chosen = try [select(command.radio, from: radios)]
            }
            if chosen.isEmpty && !command.json {
                output.write("no simulated radios to remove in this network namespace (\(Self.otherNamespaces))")
            }
            for radio in chosen {
                try await hwsim.removeRadio(HWSimRadioID(rawValue: radio.id))
            }
            if command.json {
                try output.writeJSON(SimRadioList(radios: chosen))
            } else {
                for line in SimRadioReport.lines(chosen) { output.write("removed " + line) }
            }
        }
    }

    /// hwsim lists only the radios of the caller's network namespace.
    static let otherNamespaces =
        "radios moved to other network namespaces are not visible from here; run this in their namespace, e.g. 'ip netns exec NAME waware sim list'"

    /// The radio `reference` names: a radio id, or a radio (phy) name.
    /// - Throws: ``CommandFailure`` with ``ExitCode/adapterNotFound`` listing the radios.
    static func select(_ reference: String, from radios: [SimRadioReport]) throws -> SimRadioReport {
        if let match = radios.first(where: { $0.name == reference }) { return match }
        if let id = UInt32(reference), let match = radios.first(where: { $0.id == id }) { return match }
        let known =
            radios.isEmpty
            ? "there are none in this network namespace; \(otherNamespaces)"
            : "radios: " + radios.map { "\($0.id) \($0.name ?? "")" }.joined(separator: ", ")
        throw CommandFailure("no simulated radio '\(reference)' (\(known))", code: .adapterNotFound)
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
