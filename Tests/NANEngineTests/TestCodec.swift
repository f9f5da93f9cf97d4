import Synchronization
@testable import NANEngine

/// A stand-in codec for engine tests: a frame becomes a small header (A1, A2) plus a ticket into a shared table.
/// It only proves the engine logic; byte-level behaviour is tested with the NANWire codec.
final class TestCodec: DiscoveryFrameCodec, Sendable {
    private let table = Mutex<[UInt32: IncomingDiscoveryFrame]>([:])

    func encode(_ frame: OutgoingDiscoveryFrame, source: MACAddress, cluster: MACAddress) throws -> [UInt8] {
        var announcements = frame.announcements
        for (index, filter) in frame.responseFilters {
            announcements[index].responseFilter = ReceivedResponseFilter(filter)
        }
        let incoming = IncomingDiscoveryFrame(source: source, announcements: announcements)
        let ticket = table.withLock { table in
            let ticket = UInt32(table.count + 1)
            table[ticket] = incoming
            return ticket
        }
        return [0xd0, 0] + [0, 0] + frame.destination.bytes + source.bytes + withUnsafeBytes(of: ticket.bigEndian, Array.init)
    }

    struct Malformed: Error {}

    func decode(_ bytes: [UInt8]) throws -> IncomingDiscoveryFrame {
        guard bytes.count == 20, bytes[0] == 0xd0 else { throw Malformed() }
        let ticket = bytes[16..<20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard let frame = table.withLock({ $0[ticket] }) else { throw Malformed() }
        return frame
    }
}
