import NANWire
import Testing

@testable import NANSystem

/// The permanent neighbour entry a data path's peer address gets, byte for byte as `ip -6 neigh replace
/// fe80::... lladdr ... dev IF nud permanent` sends it (iproute2's request, read with `strace -e sendmsg`).
@Suite struct NeighborTableTests {
    @Test func theRequestIsAPermanentIPv6EntryOnTheInterface() throws {
        let address: [UInt8] = [0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55]
        let mac = try #require(MACAddress(bytes: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55]))
        let request = try NeighborTable.request(address, to: mac, interface: 7, sequence: 9)
        // nlmsghdr: length 16 + 12 (ndmsg) + 20 (NDA_DST) + 12 (NDA_LLADDR, 6 bytes padded to 8).
        #expect(request.count == 60)
        #expect(Array(request[0..<4]) == [60, 0, 0, 0])
        #expect(Array(request[4..<6]) == [28, 0])  // RTM_NEWNEIGH
        #expect(Array(request[6..<8]) == [0x05, 0x05])  // REQUEST|ACK|REPLACE|CREATE
        // AF_INET6, ifindex 7, NUD_PERMANENT
        #expect(Array(request[16..<28]) == [10, 0, 0, 0, 7, 0, 0, 0, 0x80, 0, 0, 0])
        #expect(Array(request[28..<32]) == [20, 0, 1, 0])  // NDA_DST, 16 bytes
        #expect(Array(request[32..<48]) == address)
        #expect(Array(request[48..<52]) == [10, 0, 2, 0])  // NDA_LLADDR, 6 bytes
        #expect(Array(request[52..<58]) == mac.bytes)
    }

    @Test func anAddressThatIsNotIPv6IsRefusedBeforeTheKernel() throws {
        let mac = try #require(MACAddress(bytes: [0x02, 0, 0, 0, 0, 1]))
        #expect(throws: NetlinkError.self) {
            try NeighborTable.request([127, 0, 0, 1], to: mac, interface: 1, sequence: 1)
        }
    }
}
