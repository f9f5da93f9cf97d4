public import FoundationEssentials

extension WAPairedDevice {
    /// All paired devices in the default store: the current snapshot, then one after every change
    /// (Apple's `WAPairedDevice.allDevices`).
    ///
    /// ```swift
    /// for try await devices in WAPairedDevice.allDevices {
    ///     print(devices.values.map(\.name).sorted())
    /// }
    /// ```
    public static var allDevices: DevicesSequence {
        WADeviceStore.default.allDevices
    }

    /// Paired devices in the default store for which `predicate` is true, as snapshots
    /// (Apple's `WAPairedDevice.allDevices(matching:)`).
    ///
    /// - Parameter predicate: Which devices to include, e.g. `#Predicate { $0.name?.starts(with: "Kitchen") ?? false }`.
    /// - Returns: The sequence of snapshots.
    public static func allDevices(matching predicate: Predicate<WAPairedDevice>) -> DevicesSequence {
        WADeviceStore.default.allDevices(matching: predicate)
    }

    /// An asynchronous sequence of snapshots of a device store (Apple's `DevicesSequence`).
    ///
    /// The first element is the store as it is now; after that, a snapshot arrives whenever the
    /// (filtered) set of devices changes. Only the newest snapshot is kept while the consumer is
    /// busy. The sequence ends when the consuming task is cancelled, and throws a ``WAError`` if
    /// the store becomes unreadable or the predicate fails.
    public struct DevicesSequence: AsyncSequence, Sendable {
        /// A snapshot: the matching devices keyed by id.
        public typealias Element = Devices
        /// What iteration throws.
        public typealias Failure = WAError

        let store: WADeviceStore
        let predicate: Predicate<WAPairedDevice>?
        /// How often to look for changes made by other processes.
        let pollInterval: Duration

        init(store: WADeviceStore, predicate: Predicate<WAPairedDevice>?, pollInterval: Duration = .milliseconds(500)) {
            self.store = store
            self.predicate = predicate
            self.pollInterval = pollInterval
        }

        /// Starts watching the store.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(sequence: self)
        }

        /// Produces the snapshots of one iteration.
        public struct AsyncIterator: AsyncIteratorProtocol {
            private let sequence: DevicesSequence
            private var wakeUps: AsyncStream<Void>.Iterator?
            /// The file's bytes at the last read (`nil` inside: there was no file); `nil`: not read yet.
            private var lastData: Data??
            private var lastSnapshot: Devices?

            init(sequence: DevicesSequence) {
                self.sequence = sequence
            }

            /// The next snapshot, or `nil` once the consuming task is cancelled.
            ///
            /// - Throws: ``WAError`` if the store cannot be read or the predicate fails.
            public mutating func next() async throws(WAError) -> Devices? {
                try await next(isolation: nil)
            }

            /// The next snapshot, or `nil` once the consuming task is cancelled.
            ///
            /// - Parameter actor: The caller's actor.
            /// - Throws: ``WAError`` if the store cannot be read or the predicate fails.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(WAError) -> Devices? {
                if Task.isCancelled { return nil }
                guard lastSnapshot != nil else {
                    // Subscribe before the first read, so no change between the two is missed.
                    wakeUps = Self.startWakeUps(for: sequence.store.url, every: sequence.pollInterval)
                    return try read() ?? [:]
                }
                while true {
                    guard await wakeUps?.next(isolation: actor) != nil, !Task.isCancelled else {
                        return nil
                    }
                    if let snapshot = try read() {
                        return snapshot
                    }
                }
            }

            /// Reads the store; returns a snapshot only if the matching devices changed since the last one.
            private mutating func read() throws(WAError) -> Devices? {
                let data = try sequence.store.readData()
                if let lastData, data == lastData { return nil }
                lastData = .some(data)
                let all: Devices
                if let data {
                    do throws(DeviceStoreFile.Problem) {
                        all = try DeviceStoreFile.decode(data)
                    } catch {
                        // Reading again through the store gives the error its full message.
                        all = try sequence.store.devices()
                    }
                } else {
                    all = [:]
                }
                let snapshot = try filter(all)
                if snapshot == lastSnapshot { return nil }
                lastSnapshot = snapshot
                return snapshot
            }

            /// The devices the predicate admits, as a `matching` selection picks them.
            private func filter(_ devices: Devices) throws(WAError) -> Devices {
                guard let predicate = sequence.predicate, !devices.isEmpty else { return devices }
                return try WADeviceSelection.matching(predicate).resolve(in: devices) ?? devices
            }

            /// A stream that ticks when this process changes the store and every `interval` otherwise.
            /// It stops (and its timer task ends) when the iterator is dropped or its task cancelled.
            private static func startWakeUps(for url: URL, every interval: Duration) -> AsyncStream<Void>.Iterator {
                let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                let token = StoreChangeSignal.shared.add(continuation, for: url)
                let timer = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        continuation.yield()
                    }
                }
                continuation.onTermination = { _ in
                    timer.cancel()
                    StoreChangeSignal.shared.remove(token, for: url)
                }
                return stream.makeAsyncIterator()
            }
        }
    }
}
