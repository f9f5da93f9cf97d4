import Foundation
import NANWire
import Testing
import WiFiAware

// The examples in docs/api.md, run against temporary files instead of the user's own.

@Suite struct DocumentationExamplesTests {
    @Test func servicesExample() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("services.json")
            try Data(
                #"""
                {
                  "WiFiAwareServices": {
                    "_file-share._tcp": {
                      "Publishable": { "serviceInfo": "v=1", "matchFilter": ["photos", ""], "dataPath": true },
                      "Subscribable": {}
                    },
                    "_sensor._udp": {
                      "Subscribable": { "serviceInfoHex": "0102" }
                    }
                  }
                }
                """#.utf8
            ).write(to: file)

            let registry = try WAServiceRegistry.load(from: file)
            let share = try registry.publishableService(named: "_file-share._tcp")
            #expect(share.name.label == "file-share" && share.wantsDataPath)
            let sensor = try registry.subscribableService(named: "_sensor._udp")
            #expect(sensor.serviceInfo == [1, 2])
            do {
                _ = try WAServiceName("_file_share._tcp")
                Issue.record("an invalid name was accepted")
            } catch {
                #expect(
                    "\(error)"
                        == "invalid service name '_file_share._tcp': '_' is not allowed; use only letters, digits and '-'"
                )
            }
        }
    }

    @Test func pairedDevicesExample() async throws {
        try await withTemporaryDirectory { folder in
            let store = WADeviceStore(url: folder.appendingPathComponent("devices.json"))
            guard let address = MACAddress("02:00:00:00:01:00") else { return }
            let speaker = try store.add(
                name: "Kitchen speaker", managementAddresses: [address],
                pairingInfo: try WAPairedDevice.PairingInfo(vendorName: "Acme", modelName: "Speaker 2"))

            try store.rename(speaker.id, to: "Hall speaker")
            let found = try store.device(identifiedBy: "Hall speaker")
            #expect(try store.devices().values.map(\.displayName) == ["Hall speaker"])
            try store.remove(found.id)

            let kitchen = #Predicate<WAPairedDevice> { $0.name?.starts(with: "Kitchen") ?? false }
            var iterator = store.allDevices(matching: kitchen).makeAsyncIterator()
            #expect(try await iterator.next() == [:])
        }
    }

    @Test func errorsExample() {
        let lookUp: () throws -> WAPublishableService = {
            try WAServiceRegistry(jsonData: Data(#"{"WiFiAwareServices": {}}"#.utf8))
                .publishableService(named: "_file-share._tcp")
        }
        var handled = false
        do {
            let service = try lookUp()
            print(service.id)
        } catch WAError.serviceNotDeclared {
            handled = true
        } catch let error as WAError where error.code == .permissionDenied {
            print(error.message)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(handled)
    }
}
