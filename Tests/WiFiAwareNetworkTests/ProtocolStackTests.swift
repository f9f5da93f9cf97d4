import Testing

@testable import WiFiAwareNetwork

/// What each protocol stack asks of the WiFiAware connection underneath.
@Suite struct ProtocolStackTests {
    @Test func tlsAndTCPAreTheTransport() throws {
        #expect(try TLS().plan().transport == .tls)
        #expect(try TLS { TCP() }.plan().transport == .tls)
        #expect(try TCP().plan().transport == .plain)
        let identity = try TLS().localIdentity(.file("/tmp/id.pem")).plan()
        #expect(identity.identityFile == "/tmp/id.pem")
        // The WiFiAware connection is always a byte stream: this layer frames the messages.
        #expect(try TLS().plan().parameters(security: .pairing).mode == .byteStream)
    }

    @Test func messageProtocolsKeepTheStreamBelowThem() throws {
        let tlv = try TLV { TCP() }.plan()
        #expect(tlv.transport == .plain && tlv.framing == MessageFraming(typeSize: 4, lengthSize: 4))
        let coder = try Coder(String.self, using: .json) { TLS() }.plan()
        #expect(coder.transport == .tls && coder.framing?.typeSize == 0)
    }

    @Test func udpAsksForDatagrams() throws {
        let plan = try UDP().plan()
        #expect(plan.datagrams && plan.parameters(security: .pairing).datagrams != nil)
    }

    @Test func quicIsTheTransportWithItsALPNAndTheSameIdentityAndTrustAsTLS() throws {
        let plan = try QUIC(alpn: ["MyALPN", "other"]).localIdentity(.file("/tmp/id.pem")).plan()
        #expect(plan.transport == .quic(alpn: ["MyALPN", "other"]) && plan.transport.isQUIC)
        #expect(plan.identityFile == "/tmp/id.pem")
        #expect(plan.parameters(security: .pairing).mode == .byteStream)
        let tlv = try TLV { QUIC(alpn: ["MyALPN"]) }.plan()
        #expect(tlv.transport.isQUIC && tlv.framing != nil)
    }

    @Test func quicWithoutAUsableALPNListIsRefused() {
        for alpn in [[], [""], [String(repeating: "x", count: 256)]] {
            #expect {
                _ = try QUIC(alpn: alpn).plan()
            } throws: { error in
                (error as? NWError)?.code == .invalidArgument
            }
        }
    }
}
