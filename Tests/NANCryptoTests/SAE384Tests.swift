@testable import NANCrypto
import NANWire
import Testing

/// SAE, ECDH and PASN on group 20 (P-384, SHA-384), as NCS-PK-PASN-256 uses them. Known answers: RFC 5903
/// §8.2 (ECDH on the 384-bit random ECP group); for SAE hash-to-element on group 20 and PASN with SHA-384
/// no vector is published, so the expected values come from `tools/sae384-vectors.py`, an independent
/// computation from IEEE 802.11-2020 §12.4 and 802.11-2024 §12.13.8 in plain Python (integers, hashlib,
/// hmac) that first checks itself against Annex J.10's group 19 PWE and RFC 5903 §8.2.
@Suite struct SAE384Tests {
    static let addrA = MACAddress(0x00, 0x09, 0x5b, 0x66, 0xec, 0x1e)
    static let addrB = MACAddress(0x00, 0x0b, 0x6b, 0xd9, 0x02, 0x46)

    static func element() throws -> SAEPasswordElement {
        try SAEPasswordToken(
            group: .p384, password: ascii("mekmitasdigoat"), ssid: ascii("byteme"), identifier: ascii("psk4internet")
        )
        .passwordElement(addrA, addrB)
    }

    @Test func ecdhMatchesRFC5903Group20() throws {
        let i = try ECEphemeralKey(
            group: .p384,
            privateKey: hex(
                "099f3c7034d4a2c699884d73a375a67f7624ef7c6b3c0f160647b67414dce655e35b538041e649ee3faef896783ab194"))
        let r = try ECEphemeralKey(
            group: .p384,
            privateKey: hex(
                "41cb0779b4bdb85d47846725fbec3c9430fab46cc8dc5060855cc9bda0aa2942e0308312916b8ed2960e4bd55a7448fc"))
        #expect(
            hexString(i.publicX)
                == "667842d7d180ac2cde6f74f37551f55755c7645c20ef73e31634fe72b4c55ee6de3ac808acb4bdb4c88732aee95f41aa")
        #expect(
            hexString(i.publicY)
                == "9482ed1fc0eeb9cafc4984625ccfc23f65032149e0e144ada024181535a0f38eeb9fcff3c2c947dae69b4c634573a81c")
        #expect(
            hexString(r.publicX)
                == "e558dbef53eecde3d3fccfc1aea08a89a987475d12fd950d83cfa41732bc509d0d1ac43a0336def96fda41d0774a3571")
        let expected =
            "11187331c279962d93d604243fd592cb9d0a926f422e47187521287e7156c5c4d603135569b9e9d09cf5d4a270f59746"
        #expect(r.compressedPublicKey.count == 49)
        #expect(hexString(try i.sharedSecret(peerPublicKey: r.compressedPublicKey)) == expected)
        #expect(hexString(try r.sharedSecret(peerPublicKey: [0x04] + i.publicX + i.publicY)) == expected)
    }

    @Test func ecdhRefusesAKeyOfTheOtherGroup() throws {
        let p384 = try ECEphemeralKey(group: .p384), p256 = try ECEphemeralKey(group: .p256)
        #expect(throws: CryptoError.self) { try p384.sharedSecret(peerPublicKey: p256.compressedPublicKey) }
        #expect(throws: CryptoError.self) { try p256.sharedSecret(peerPublicKey: p384.compressedPublicKey) }
    }

    @Test func hashToElementOnGroup20MatchesTheIndependentComputation() throws {
        let pwe = try Self.element()
        #expect(pwe.group == .p384)
        #expect(
            hexString(pwe.x)
                == "aeb85bd3dfe654a7940fb328b39db8e0b20ea289465d8b68d184bd8e98e2c419165a31eac7d9091d196ed9066d12c3fb")
        #expect(
            hexString(pwe.y)
                == "f0a27ca78906cab38d3be51601a08127ccf5b68ac5f3854e7efb521eac433030feb681650dc88980efdf542bd4bfaf00")
    }

    @Test func commitKeysAndConfirmOnGroup20MatchTheIndependentComputation() throws {
        let pwe = try Self.element()
        var a = try SAEHandshake(
            element: pwe,
            rand: hex(
                "d094d09be69cb5c42fc2a62e723c36ba122862d89525592ddaf6ca76a601b5ca0e986e4437cb3c14cd189182f9f049fc"),
            mask: hex(
                "c8af27a05b52d0713963b5a3d558ed83e1b7980b672f17368412fde9a71dfaa87b87c2c95e22c9394ab611a0db51480f"))
        let b = try SAEHandshake(
            element: pwe,
            rand: hex(
                "bcd2071de7ded7a8276f5f40242be05857c7bf2b9ddb8fdcd05e72369d21b3204b697578ed8f3091e1b42211ba2f923b"),
            mask: hex(
                "99276a1e31b5fbbd19cdaa1cf27d5e5df30e02e0155435d2ad4da775243bdb118decaf797c83f0dd53f346b7aa14202d"))
        #expect(
            hexString(a.commit.encoded()) == """
                14009943f83c41ef863569265bd24795243df3dffae3fc54706497a67ade58e882933206235b4d3d5dd32ae289b9087c6898fa3695b39e765390a1b77f6878da\
                5765b382c37eba401220f4a93348ba4da078c1b8fdcefb29faad8ac02a69ec90d6d537e0606f40eb9945a3b8f4ad35783dbe188a91f3f8dded684a4b83eb55\
                13aa85671cd715c15624caf9f1fcf4221ead01
                """)
        let decoded = try SAECommit.decode(b.commit.encoded())
        #expect(decoded.commit == b.commit && decoded.trailing.isEmpty)
        let keys = try a.receive(decoded.commit)
        #expect(
            hexString(keys.kck)
                == "52fcb3e99b8892bde7cf95c1e36f8f9f62ed3fc0b804bae06a0d26456c1050b6976e01ecebd4648b2c6fa77c636dc85c")
        #expect(hexString(keys.pmk) == "d1437c37743f12a4cbf463426441b3b2944fa2da50dac90a4959f8c744f1d4d3")
        #expect(hexString(keys.pmkid) == "ef3d69785b84599aaa63652f5e3e62f4")
        let confirm = try a.confirm(sendConfirm: 1)
        #expect(confirm.count == 48)
        #expect(
            hexString(confirm)
                == "664064eb2a13e09f821f760c1cd10d4400da3dff4fa6cad8e3b973668772b961660315824234f604b8928cce9144531c")
    }

    @Test func twoSidesOnGroup20AgreeAndConfirmEachOther() throws {
        let pt = try SAEPasswordToken(group: .p384, password: ascii("31415926"))
        let nmiA = MACAddress(0x02, 0, 0, 0, 0, 0x0a), nmiB = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
        var a = try SAEHandshake(element: pt.passwordElement(nmiA, nmiB))
        var b = try SAEHandshake(element: pt.passwordElement(nmiB, nmiA))
        #expect(a.commit.group == 20 && a.commit.scalar.count == 48 && a.commit.element.count == 96)
        let keysA = try a.receive(b.commit), keysB = try b.receive(a.commit)
        #expect(keysA.kck.count == 48 && keysA.pmk.count == 32)
        #expect(keysA.pmk == keysB.pmk && keysA.kck == keysB.kck && keysA.pmkid == keysB.pmkid)
        try b.verify(peerConfirm: a.confirm(sendConfirm: 1), peerSendConfirm: 1)
        try a.verify(peerConfirm: b.confirm(sendConfirm: 1), peerSendConfirm: 1)
        #expect(throws: CryptoError.self) {
            try a.verify(peerConfirm: Array(b.confirm(sendConfirm: 1).prefix(32)), peerSendConfirm: 1)
        }
    }

    @Test func aCommitOfTheOtherGroupIsRefused() throws {
        let nmiA = MACAddress(0x02, 0, 0, 0, 0, 0x0a), nmiB = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
        var p384 = try SAEHandshake(
            element: SAEPasswordToken(group: .p384, password: ascii("1234")).passwordElement(nmiA, nmiB))
        var p256 = try SAEHandshake(
            element: SAEPasswordToken(group: .p256, password: ascii("1234")).passwordElement(nmiB, nmiA))
        #expect(throws: CryptoError.self) { try p384.receive(p256.commit) }
        #expect(throws: CryptoError.self) { try p256.receive(p384.commit) }
        #expect(p384.keys == nil && p256.keys == nil)
    }

    @Test func group20CommitDecoderIsTotal() throws {
        let encoded = try SAEHandshake(element: Self.element()).commit.encoded()
        #expect(encoded.count == 146)
        for length in 0..<146 {
            #expect(throws: CryptoError.self) { _ = try SAECommit.decode(encoded.prefix(length)) }
        }
        #expect(throws: CryptoError.self) { _ = try SAECommit.decode([0x15, 0x00] + encoded.dropFirst(2)) }
    }

    @Test func pasnWithSHA384MatchesTheIndependentComputation() throws {
        let spa = MACAddress(0x02, 0, 0, 0, 0, 0x0a), bssid = MACAddress(0x02, 0, 0, 0, 0, 0x0b)
        let dhss = hex(
            "11187331c279962d93d604243fd592cb9d0a926f422e47187521287e7156c5c4d603135569b9e9d09cf5d4a270f59746")
        let keys = try PASNKeyDerivation.keys(
            .sha384, pmk: PASNKeyDerivation.defaultPMK, initiator: spa, responder: bssid,
            sharedSecret: dhss, tkLength: 32)
        #expect(hexString(keys.kck) == "ea3358b7f6bc90b0e93e7f4d462ba246b1cb5fbc1c7b667e8caf2b633e6a9877")
        #expect(hexString(keys.tk) == "f77c3f2e944b5d16badcbe8c0b94799329f1c94a5e962baeba77a46d8f5fc2fa")
        #expect(hexString(keys.kdk) == "443ff737eb94e98083ae6d94633b06d0d96d35a4c76337727d628133125b0918")
        let mic = try PASNKeyDerivation.mic(
            .sha384, kck: keys.kck, first: spa, second: bssid, data: [1, 2], frame: [3])
        #expect(hexString(mic) == "75c2700562611c4f0625feb7f8994085b610a1dfbe57322d")
    }
}
