import NANWire
import Testing

/// The PASN Authentication frame body and the PASN Parameters element (IEEE 802.11-2024 §9.3.3.12 and
/// §9.4.2.313; layout as hostap's `wpa_pasn_parse_parameter_ie` reads it).
@Suite struct PASNAuthenticationTests {
    /// Frame 1 of an SAE pairing setup: algorithm 7, sequence 1, status 0, an RSNE, PASN Parameters (SAE
    /// wrapped data, group 19 with a 33-byte key) and a Wrapped Data element.
    static let frame1 = hex(
        """
        0700 0100 0000
        30 02 0100
        ff 27 64 02 03 1300 21 02\(String(repeating: "ab", count: 32))
        ff 05 08 13 00 aa bb
        """)

    @Test func decodesTheFirstFrameOfAnSAEPairing() throws {
        let frame = try PASNAuthenticationFrame(decoding: Self.frame1[...])
        #expect(frame.sequence == 1 && frame.status == 0)
        #expect(frame.rsne.map(Array.init) == [0x01, 0x00])
        let parameters = try #require(try frame.parameters())
        #expect(parameters.wrappedDataFormat == PASNParameters.wrappedSAE)
        #expect(parameters.group == 19 && parameters.publicKey.count == 33 && parameters.comeback == nil)
        #expect(frame.wrappedData.map(Array.init) == [0x13, 0x00, 0xaa, 0xbb])
        #expect(try frame.encoded() == Self.frame1)
    }

    @Test func builtFramesRoundTrip() throws {
        for sequence: UInt16 in 1...3 {
            let comeback = PairingBootstrappingAttribute.Comeback(
                after: sequence == 2 ? 100 : nil, cookie: [1, 2, 3][...])
            let parameters = PASNParameters(
                wrappedDataFormat: 3, comeback: comeback, group: 19, publicKey: [0x02, 9][...])
            let frame = PASNAuthenticationFrame(
                sequence: sequence, status: sequence == 2 ? 76 : 0,
                elements: [
                    InformationElement(id: 48, body: [1, 0][...]), try parameters.element(sequence: sequence),
                    InformationElement(id: 140, body: [UInt8](repeating: 7, count: 16)[...]),
                ])
            let decoded = try PASNAuthenticationFrame(decoding: try frame.encoded()[...])
            #expect(try decoded.encoded() == frame.encoded())
            #expect(try decoded.parameters() == parameters)
            #expect(decoded.mic?.count == 16)
        }
    }

    @Test func comebackAfterIsOnlyInResponderFrames() {
        let parameters = PASNParameters(wrappedDataFormat: 0, comeback: .init(after: 5, cookie: [][...]), group: nil)
        #expect(throws: NANWireError.self) { _ = try parameters.element(sequence: 1) }
        #expect((try? parameters.element(sequence: 2)) != nil)
    }

    @Test func hostileBodiesGiveTypedErrors() {
        // Every truncation of a valid body, other algorithms, sequences, formats and lengths.
        for length in 0..<Self.frame1.count where length != 6 && length != 10 && length != 51 {
            #expect(throws: NANWireError.self) { _ = try PASNAuthenticationFrame(decoding: Self.frame1.prefix(length)) }
        }
        let bad: [[UInt8]] = [
            hex("0300 0100 0000"),  // not PASN
            hex("0700 0400 0000"),  // sequence 4
            hex("0700 0000 0000"),  // sequence 0
            hex("0700 0100 0000 ff 00"),  // extension element without an ID
            hex("0700 0100 0000 ff 03 64 00 09"),  // wrapped data format 9
            hex("0700 0100 0000 ff 04 64 02 03 13"),  // group truncated
            hex("0700 0100 0000 ff 06 64 02 03 1300 05"),  // key length past the end
            hex("0700 0100 0000 ff 05 64 00 00 00 00"),  // trailing bytes in parameters
            hex("0700 0200 0000 ff 04 64 01 00 05"),  // responder comeback-after truncated
        ]
        for body in bad {
            #expect(throws: NANWireError.self) { _ = try PASNAuthenticationFrame(decoding: body[...]) }
        }
    }
}
