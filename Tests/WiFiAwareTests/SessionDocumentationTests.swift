import Foundation
import NANWire
import Testing

@testable import NANEngine
@testable import WiFiAware

// The session examples of docs/api.md, with the body of `WASystem.run` run on a fake radio.

@Suite struct SessionDocumentationTests {
    @Test func subscriberExample() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                let service = try WASubscribableService(name: WAServiceName("_file-share._tcp"))
                let feed = Task {
                    guard await backend.waitUntil({ !$0.started.isEmpty }) else { return }
                    backend.emit(.discovered(result(from: 1, info: "v=1")))
                    backend.emit(.messageReceived(message(from: 1, "hi")))
                    // A session that has ended takes no more messages, so end it after the reply went out.
                    guard await backend.waitUntil({ !$0.sentPayloads.isEmpty }) else { return }
                    backend.emit(.terminated(.timeToLiveExpired))
                }
                defer { feed.cancel() }
                var printed: [String] = []
                func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

                // From docs/api.md:
                print("we are", system.localAddress, "on", system.adapterName)
                let browser = system.subscribe(to: service, from: .allPairedDevices)
                for try await event in browser {
                    switch event {
                    case .started(let instance): print("subscribed as instance", instance)
                    case .discovered(let endpoint):
                        print(
                            "found", endpoint.device?.displayName ?? "?", endpoint.address,
                            endpoint.performance.signalStrength ?? 0)
                        let status = try await browser.send(Array("hello".utf8), to: endpoint)
                        print("hello was", status)
                    case .updated(let endpoint): print("new service info from", endpoint)
                    case .lost(let endpoint): print("lost", endpoint)
                    case .messageReceived(let message): print(message.endpoint, "says", message.payload)
                    case .eventsLost(let dropped): print("radio events lost:", dropped ?? -1, "(resynchronised)")
                    case .terminated(let reason): print("ended:", reason)
                    }
                }

                #expect(
                    printed == [
                        "we are \(backend.localAddress) on phy0",
                        "subscribed as instance 1",
                        "found A 02:00:00:00:00:01 -40",
                        "hello was acknowledged",
                        "02:00:00:00:00:01#7 (A) says [104, 105]",
                        "ended: ttl",
                    ])
            }
        }
    }

    @Test func publisherExample() async throws {
        try await withTemporaryDirectory { folder in
            try await withFakeSystem(in: folder) { system, backend in
                try system.store.add(name: "A", managementAddresses: [testAddress(1)])
                let service = try WAPublishableService(name: WAServiceName("_file-share._tcp"))
                let feed = Task {
                    guard await backend.waitUntil({ !$0.started.isEmpty }) else { return }
                    backend.emit(.messageReceived(message(from: 1, "ping")))
                    guard await backend.waitUntil({ !$0.sentPayloads.isEmpty }) else { return }
                    backend.emit(.terminated(.userRequest))
                }
                defer { feed.cancel() }

                // From docs/api.md:
                let listener = system.publish(service, to: .allPairedDevices)
                for try await case .messageReceived(let message) in listener {
                    try await listener.send(Array("pong".utf8), to: message.endpoint)
                }

                #expect(backend.sentPayloads == [Array("pong".utf8)])
            }
        }
    }
}
