import NANLogging
import NANSystem
import NANWire

/// `waware diagnose --two-radio`: makes two simulated NAN radios (mac80211_hwsim) for the test, brings up
/// Wi-Fi Aware on both through the public API, publishes a service on one and subscribes to it on the other, times the discovery and a
/// follow-up's round trip (the publisher answers it), and removes everything it made.
///
/// Loopback-free: the two sides are two radios, and everything they exchange is 802.11 frames (the
/// publish, the follow-ups) that cross hwsim's simulated medium; no IP is involved, so no route through
/// `lo` or a local address can short-cut it. The radios are made with `destroyOnClose`, so the kernel
/// removes them with the hwsim socket even if waware dies (Ctrl-C, a crash), and the NAN interfaces die
/// with their nl80211 sockets.
@_spi(Tools) public enum TwoRadioTest {
    /// Runs the test; never throws: a failure is its outcome, with what to do.
    /// - Parameters:
    ///   - timeout: the limit of each wait (the clusters, the discovery, the answer).
    ///   - logger: where the two systems trace what they do.
    static func run(timeout: Duration, logger: Logger) async -> TwoRadioReport {
        do {
            return try await HWSim.withSession { hwsim in
                guard hwsim.supportsNAN else {
                    return .notRun(
                        "this kernel's mac80211_hwsim cannot simulate NAN radios",
                        remedy: "use Linux 7.2 or newer (its mac80211_hwsim has NAN)")
                }
                var created: [HWSimRadioID] = []
                var report: TwoRadioReport
                do {
                    for _ in 0..<2 {
                        created.append(try await hwsim.addRadio(HWSimRadioConfiguration(destroyOnClose: true)))
                    }
                    report = try await exchange(radios: created, hwsim: hwsim, timeout: timeout, logger: logger)
                } catch {
                    report = .notRun(message(for: error), remedy: remedy(for: error))
                }
                if Task.isCancelled, report.error != nil {
                    report.error = "interrupted"
                    report.remedy = interruptedRemedy
                }
                // Removed here, not only when the session closes, so the report can say they are gone; in a
                // task of its own, so a Ctrl-C that cancelled the test does not cancel the removal.
                let removal = created
                report.cleanedUp = await Task {
                    for id in removal { try? await hwsim.removeRadio(id) }
                    let left = (try? await hwsim.radios()).map { radios in radios.filter { removal.contains($0.id) } }
                    return left?.isEmpty ?? false
                }.value
                if report.radios.isEmpty, !created.isEmpty {
                    report.radios = created.map { "radio \($0)" }
                }
                return report
            }
        } catch {
            return .notRun(message(for: error), remedy: remedy(for: error))
        }
    }

    /// Brings Wi-Fi Aware up on both radios through the public API (`WASystem.run`, one system per radio),
    /// publishes on the first, subscribes on the second, and measures.
    private static func exchange(
        radios ids: [HWSimRadioID], hwsim: HWSimSession, timeout: Duration, logger: Logger
    ) async throws -> TwoRadioReport {
        let names = try await hwsim.radios().filter { ids.contains($0.id) }.sorted { $0.id.rawValue < $1.id.rawValue }
            .compactMap(\.name)
        guard names.count == 2 else {
            throw WAError(.kernel, message: "the two new radios (\(names.joined(separator: ", "))) did not show up")
        }
        var report = TwoRadioReport.notRun("", remedy: nil)
        report.radios = names
        report.error = nil
        // A service no other device publishes: a random name, so radios already running NAN here do not answer.
        let service = try WAServiceName("_wd\(Hex.string((0..<4).map { _ in UInt8.random(in: 0...255) }))._udp")
        var options = WASystemOptions()
        options.clusterTimeout = timeout
        options.logger = logger
        let outcome: Outcome = try await WASystem.run(adapter: names[0], options: options) { publisher in
            try await WASystem.run(adapter: names[1], options: options) { subscriber in
                try await measure(publisher: publisher, subscriber: subscriber, service: service, timeout: timeout)
            }
        }
        report.publisher = outcome.publisher.description
        report.subscriber = outcome.subscriber.description
        report.discovered = outcome.discovery != nil
        report.discoverySeconds = outcome.discovery.map(ClusterSession.seconds)
        report.discoveryWindows = report.discoverySeconds.map(TwoRadioReport.windows)
        report.signal = outcome.signal
        report.frequency = outcome.frequency
        report.followUpRoundTripSeconds = outcome.roundTrip.map(ClusterSession.seconds)
        report.followUpRoundTripWindows = report.followUpRoundTripSeconds.map(TwoRadioReport.windows)
        report.error = outcome.error
        report.remedy =
            outcome.error == nil
            ? nil : "look at 'dmesg' for mac80211_hwsim's messages and add them and this report to a bug"
        return report
    }

    /// What the two systems measured.
    private struct Outcome: Sendable {
        var publisher: MACAddress
        var subscriber: MACAddress
        var discovery: Duration?
        var signal: Int?
        var frequency: Int?
        var roundTrip: Duration?
        var error: String?
    }

    /// Publishes on one system, subscribes on the other, and times the discovery and a follow-up's answer.
    private static func measure(
        publisher: WASystem, subscriber: WASystem, service: WAServiceName, timeout: Duration
    ) async throws -> Outcome {
        let published = publisher.publish(try WAPublishableService(name: service, serviceInfo: []), to: .anyDevice)
        // The publisher answers every follow-up with the same bytes.
        let echo = Task {
            for try await event in published {
                if case .messageReceived(let message) = event {
                    _ = try? await published.send(message.payload, to: message.endpoint)
                }
            }
        }
        defer { echo.cancel() }
        let subscribed = subscriber.subscribe(
            to: try WASubscribableService(name: service, serviceInfo: []), from: .anyDevice)
        let target = publisher.localAddress
        let limit = Diagnosis.formatSeconds(ClusterSession.seconds(timeout))
        // At the time limit the subscription is stopped, so its sequence ends and what was measured stays.
        var measured = try await SubscriptionTimeout.race(
            timeout: ClusterSession.seconds(timeout), grace: .seconds(3), onTimeout: { await subscribed.stop() }
        ) { _ in
            try await discoverAndAsk(subscribed, publisher: target, limit: limit)
        }
        measured.publisher = target
        measured.subscriber = subscriber.localAddress
        await subscribed.stop()
        await published.stop()
        return measured
    }

    /// Iterates the subscription until the publisher is found, sends it a follow-up and waits for the
    /// same bytes back; the subscription ending first (the time limit stopped it) is the failure reported.
    private static func discoverAndAsk(
        _ subscribed: WASubscriber, publisher: MACAddress, limit: String
    ) async throws -> Outcome {
        var outcome = Outcome(publisher: publisher, subscriber: publisher)
        let ping = Array("waware diagnose".utf8)
        let clock = ContinuousClock()
        let start = clock.now
        var sent: ContinuousClock.Instant?
        var status: WADeliveryStatus?
        for try await event in subscribed {
            switch event {
            case .discovered(let endpoint) where endpoint.address == publisher && outcome.discovery == nil:
                outcome.discovery = clock.now - start
                outcome.signal = endpoint.performance.signalStrength
                outcome.frequency = endpoint.performance.frequency
                sent = clock.now
                status = try await subscribed.send(ping, to: endpoint)
            case .messageReceived(let message) where message.endpoint.address == publisher && message.payload == ping:
                if let sent { outcome.roundTrip = clock.now - sent }
                return outcome
            default:
                continue
            }
        }
        if outcome.discovery == nil {
            outcome.error = "the subscriber did not discover the publisher within \(limit) s"
        } else {
            outcome.error =
                "the publisher did not answer the follow-up within \(limit) s of the start"
                + (status.map { " (the follow-up's delivery status: \($0))" } ?? "")
        }
        return outcome
    }

    /// The remedy of a test stopped by Ctrl-C.
    static let interruptedRemedy = "run it again and let it end (it takes a few seconds)"

    /// The remedy of a test refused for lack of privilege.
    public static let needsPrivilege = "run as root or with CAP_NET_ADMIN"

    /// The one-line reason for a failure.
    private static func message(for error: any Error) -> String {
        if let netlink = error as? NetlinkError, netlink.code == .hwsimNotLoaded {
            return "the mac80211_hwsim module is not loaded"
        }
        if error is CancellationError { return "interrupted" }
        return WAError.tool(error).message
    }

    /// What to do about a failure, when something can be done.
    private static func remedy(for error: any Error) -> String? {
        if let netlink = error as? NetlinkError {
            if netlink.code == .hwsimNotLoaded {
                return "load the simulated radios' module as root: 'modprobe mac80211_hwsim radios=0' (on Debian it is "
                    + "in the kernel's own package; a kernel built without CONFIG_MAC80211_HWSIM cannot run this test)"
            }
            if netlink.code == .hwsimWithoutNAN { return "use Linux 7.2 or newer (its mac80211_hwsim has NAN)" }
            if netlink.code == .permissionDenied { return needsPrivilege }
        }
        if let error = error as? WAError, error.code == .permissionDenied { return needsPrivilege }
        if error is CancellationError { return interruptedRemedy }
        return "look at 'dmesg' for mac80211_hwsim's messages and add them and this report to a bug"
    }
}
