/// What a ``NetworkListener`` does over Wi-Fi Aware (Apple's `WAPublisherListener`): publish a service and
/// accept connections from a selection of paired devices.
///
/// ```swift
/// NetworkListener(for: .wifiAware(.connecting(to: service, from: .allPairedDevices))) { TLS() }
/// ```
public struct WAPublisherListener: Sendable {
    /// The service and the devices (Apple's `WAPublisherListener.Action`).
    public struct Action: Sendable {
        /// The service published.
        public let service: WAPublishableService
        /// Whose connections are accepted.
        public let devices: WADeviceSelection

        /// Publishes `service` and accepts connections from `devices`.
        public static func connecting(to service: WAPublishableService, from devices: WADeviceSelection) -> Action {
            Action(service: service, devices: devices)
        }
    }

    /// What the listener does.
    public let action: Action

    /// A listener over Wi-Fi Aware.
    public static func wifiAware(_ action: Action) -> WAPublisherListener { WAPublisherListener(action: action) }
}

/// What a ``NetworkBrowser`` does over Wi-Fi Aware (Apple's `WASubscriberBrowser`): subscribe to a service
/// on a selection of paired devices and report the listeners found.
///
/// ```swift
/// NetworkBrowser(for: .wifiAware(.connecting(to: .allPairedDevices, from: service)))
/// ```
public struct WASubscriberBrowser: Sendable {
    /// The endpoints a browser reports.
    public typealias Endpoint = WAEndpoint

    /// The devices and the service (Apple's `WASubscriberBrowser.Action`).
    public struct Action: Sendable {
        /// Whose listeners are reported.
        public let devices: WADeviceSelection
        /// The service looked for.
        public let service: WASubscribableService

        /// Looks for `service` on `devices`.
        public static func connecting(to devices: WADeviceSelection, from service: WASubscribableService) -> Action {
            Action(devices: devices, service: service)
        }
    }

    /// What the browser does.
    public let action: Action

    /// A browser over Wi-Fi Aware.
    public static func wifiAware(_ action: Action) -> WASubscriberBrowser { WASubscriberBrowser(action: action) }
}
