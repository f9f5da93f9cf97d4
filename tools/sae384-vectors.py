#!/usr/bin/env python3
"""Independent known answers for NCS-PK-PASN-256 (SAE and PASN on group 20, SHA-384 NAN KDFs).

No published test vector covers SAE on group 20 with hash-to-element, PASN with SHA-384 or the NAN
pairing KDFs over SHA-384, so this script computes them from the specifications with nothing but
Python's integers, hashlib and hmac (no code shared with waware's Swift, which goes through libcrypto):

  - SAE hash-to-element (IEEE 802.11-2020 12.4.4.2.3, simplified SWU of RFC 9380 6.6.2 with Z = -12 for
    P-384), PWE, commit, KCK / PMK / PMKID and confirm (12.4.5.4, 12.4.5.5), H = SHA-384 for group 20;
  - PASN-PTK with SHA-384 (IEEE 802.11-2024 12.13.8): KCK 32, TK 32 (GCMP-256), KDK 32, and the 24-byte MIC;
  - the Wi-Fi Aware 4.0 7.6.4 keys over the KDK with SHA-384 (NM-KEK 32, ND-PMK 32, opportunistic NPK 32).

Self-checks first: the same code on group 19 must give IEEE 802.11-2020 Annex J.10's hash-to-element PWE,
and P-384 scalar multiplication must give RFC 5903 8.2's public keys and shared secret (and, when the
`cryptography` package is installed, the same as OpenSSL through it). Run: python3 tools/sae384-vectors.py
Its output is what Tests/NANCryptoTests/SAE384Tests.swift and Tests/NANEngineTests/Pairing/
PairingKeys384Tests.swift expect.
"""
import hashlib
import hmac

CURVES = {
    19: dict(
        p=0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF,
        a=-3,
        b=0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B,
        r=0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
        gx=0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
        gy=0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
        z=-10, n=32, hash=hashlib.sha256),
    20: dict(
        p=0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFF0000000000000000FFFFFFFF,
        a=-3,
        b=0xB3312FA7E23EE7E4988E056BE3F82D19181D9C6EFE8141120314088F5013875AC656398D8A2ED19D2A85C8EDD3EC2AEF,
        r=0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973,
        gx=0xAA87CA22BE8B05378EB1C71EF320AD746E1D3B628BA79B9859F741E082542A385502F25DBF55296C3A545E3872760AB7,
        gy=0x3617DE4A96262C6F5D9E98BF9292DC29F8F41DBD289A147CE9DA3113B5F0B8C00A60B1CE1D7E819D7A431D7C90EA0E5F,
        z=-12, n=48, hash=hashlib.sha384),
}


class Curve:
    def __init__(self, group):
        c = CURVES[group]
        self.group, self.p, self.r, self.n, self.h = group, c["p"], c["r"], c["n"], c["hash"]
        self.a, self.b, self.z = c["a"] % c["p"], c["b"], c["z"] % c["p"]
        self.g = (c["gx"], c["gy"])

    def on_curve(self, pt):
        x, y = pt
        return (y * y - (x * x * x + self.a * x + self.b)) % self.p == 0

    def add(self, p1, p2):
        if p1 is None:
            return p2
        if p2 is None:
            return p1
        (x1, y1), (x2, y2) = p1, p2
        if x1 == x2 and (y1 + y2) % self.p == 0:
            return None
        if p1 == p2:
            lam = (3 * x1 * x1 + self.a) * pow(2 * y1, -1, self.p)
        else:
            lam = (y2 - y1) * pow(x2 - x1, -1, self.p)
        x3 = (lam * lam - x1 - x2) % self.p
        return (x3, (lam * (x1 - x3) - y1) % self.p)

    def mul(self, k, pt):
        result = None
        for bit in bin(k)[2:]:
            result = self.add(result, result)
            if bit == "1":
                result = self.add(result, pt)
        return result

    def neg(self, pt):
        return (pt[0], (-pt[1]) % self.p)

    def sswu(self, u):
        p, a, b, z = self.p, self.a, self.b, self.z
        tv = (z * z * pow(u, 4, p) + z * u * u) % p
        if tv == 0:
            x1 = b * pow(z * a, -1, p) % p
        else:
            x1 = (-b) * pow(a, -1, p) * (1 + pow(tv, -1, p)) % p
        gx1 = (x1 ** 3 + a * x1 + b) % p
        x2 = z * u * u * x1 % p
        gx2 = (x2 ** 3 + a * x2 + b) % p
        if pow(gx1, (p - 1) // 2, p) in (0, 1):
            x, y = x1, pow(gx1, (p + 1) // 4, p)
        else:
            x, y = x2, pow(gx2, (p + 1) // 4, p)
        if (u & 1) != (y & 1):
            y = (-y) % p
        return (x, y)


def hkdf_extract(h, salt, ikm):
    return hmac.new(salt, ikm, h).digest()


def hkdf_expand(h, prk, info, length):
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), h).digest()
        out += block
        i += 1
    return out[:length]


def kdf(h, key, label, context, length):
    """IEEE 802.11 KDF-Hash-Length: HMAC(K, i LE16 || label || context || bits LE16), concatenated."""
    out, i = b"", 1
    while len(out) < length:
        out += hmac.new(key, i.to_bytes(2, "little") + label.encode() + context + (length * 8).to_bytes(2, "little"), h).digest()
        i += 1
    return out[:length]


def be(value, n):
    return value.to_bytes(n, "big")


def pwe(c, password, ssid, identifier, mac_a, mac_b):
    seed = hkdf_extract(c.h, ssid, password + identifier)
    length = c.n + (c.n + 1) // 2
    points = []
    for label in (b"SAE Hash to Element u1 P1", b"SAE Hash to Element u2 P2"):
        u = int.from_bytes(hkdf_expand(c.h, seed, label, length), "big") % c.p
        points.append(c.sswu(u))
    pt = c.add(points[0], points[1])
    high, low = max(mac_a, mac_b), min(mac_a, mac_b)
    val = int.from_bytes(hkdf_extract(c.h, bytes(c.h().digest_size), high + low), "big") % (c.r - 1) + 1
    return c.mul(val, pt)


def commit(c, element, rand, mask):
    scalar = (rand + mask) % c.r
    e = c.neg(c.mul(mask, element))
    return scalar, e


def sae_keys(c, element, rand, scalar, peer_scalar, peer_element):
    k = c.mul(rand, c.add(c.mul(peer_scalar, element), peer_element))[0]
    hlen = c.h().digest_size
    keyseed = hkdf_extract(c.h, bytes(hlen), be(k, c.n))
    context = be((scalar + peer_scalar) % c.r, c.n)
    material = kdf(c.h, keyseed, "SAE KCK and PMK", context, hlen + 32)
    return material[:hlen], material[hlen:], context[:16]


def confirm(c, kck, send_confirm, s1, e1, s2, e2):
    msg = send_confirm.to_bytes(2, "little")
    for value in (be(s1, c.n), be(e1[0], c.n) + be(e1[1], c.n), be(s2, c.n), be(e2[0], c.n) + be(e2[1], c.n)):
        msg += value
    return hmac.new(kck, msg, c.h).digest()


def show(name, value):
    print(f"{name} = {value.hex() if isinstance(value, bytes) else value}")


def self_checks():
    c19 = Curve(19)
    a, b = bytes.fromhex("00095b66ec1e"), bytes.fromhex("000b6bd90246")
    element = pwe(c19, b"mekmitasdigoat", b"byteme", b"psk4internet", a, b)
    assert be(element[0], 32).hex() == "c93049b9e64000f848201649e999f2b5c22dea69b5632c9df4d633b8aa1f6c1e", "Annex J.10 PWE x"
    assert be(element[1], 32).hex() == "73634e94b53d82e7383a8d258199d9dc1a5ee8269d060382ccbf33e614ff59a0", "Annex J.10 PWE y"
    c = Curve(20)
    i = 0x099F3C7034D4A2C699884D73A375A67F7624EF7C6B3C0F160647B67414DCE655E35B538041E649EE3FAEF896783AB194
    r = 0x41CB0779B4BDB85D47846725FBEC3C9430FAB46CC8DC5060855CC9BDA0AA2942E0308312916B8ED2960E4BD55A7448FC
    gi, gr = c.mul(i, c.g), c.mul(r, c.g)
    assert gi[0] == 0x667842D7D180AC2CDE6F74F37551F55755C7645C20EF73E31634FE72B4C55EE6DE3AC808ACB4BDB4C88732AEE95F41AA, "RFC 5903 gix"
    assert gr[0] == 0xE558DBEF53EECDE3D3FCCFC1AEA08A89A987475D12FD950D83CFA41732BC509D0D1AC43A0336DEF96FDA41D0774A3571, "RFC 5903 grx"
    assert c.mul(i, gr)[0] == 0x11187331C279962D93D604243FD592CB9D0A926F422E47187521287E7156C5C4D603135569B9E9D09CF5D4A270F59746
    try:
        from cryptography.hazmat.primitives.asymmetric import ec
        key = ec.derive_private_key(i, ec.SECP384R1())
        assert key.public_key().public_numbers().x == gi[0], "OpenSSL via cryptography disagrees"
        print("# self-checks: Annex J.10 group 19 PWE, RFC 5903 8.2, and OpenSSL (cryptography) agree")
    except ImportError:
        print("# self-checks: Annex J.10 group 19 PWE and RFC 5903 8.2 agree (cryptography not installed)")


def main():
    self_checks()
    c = Curve(20)
    print("# SAE, group 20, hash-to-element; password mekmitasdigoat, SSID byteme, identifier psk4internet")
    a, b = bytes.fromhex("00095b66ec1e"), bytes.fromhex("000b6bd90246")
    element = pwe(c, b"mekmitasdigoat", b"byteme", b"psk4internet", a, b)
    assert c.on_curve(element)
    show("pwe.x", be(element[0], 48))
    show("pwe.y", be(element[1], 48))
    # rand and mask of each side: the first 48 bytes of SHA-384 of a label, reduced mod r (fixed, arbitrary).
    fixed = lambda label: int.from_bytes(hashlib.sha384(label).digest(), "big") % c.r
    rand_a, mask_a = fixed(b"rand A"), fixed(b"mask A")
    rand_b, mask_b = fixed(b"rand B"), fixed(b"mask B")
    show("rand.a", be(rand_a, 48)); show("mask.a", be(mask_a, 48))
    show("rand.b", be(rand_b, 48)); show("mask.b", be(mask_b, 48))
    s_a, e_a = commit(c, element, rand_a, mask_a)
    s_b, e_b = commit(c, element, rand_b, mask_b)
    show("commit.a", (20).to_bytes(2, "little") + be(s_a, 48) + be(e_a[0], 48) + be(e_a[1], 48))
    show("commit.b", (20).to_bytes(2, "little") + be(s_b, 48) + be(e_b[0], 48) + be(e_b[1], 48))
    kck, pmk, pmkid = sae_keys(c, element, rand_a, s_a, s_b, e_b)
    kck_b, pmk_b, _ = sae_keys(c, element, rand_b, s_b, s_a, e_a)
    assert (kck, pmk) == (kck_b, pmk_b)
    show("kck", kck); show("pmk", pmk); show("pmkid", pmkid)
    show("confirm.a(sc=1)", confirm(c, kck, 1, s_a, e_a, s_b, e_b))

    print("# PASN-PTK with SHA-384 (no base AKM, GCMP-256): PMK PMKz||0*28, SPA 02:00:00:00:00:0a, BSSID 02:00:00:00:00:0b,")
    print("# DHss = RFC 5903 8.2 girx")
    dhss = bytes.fromhex("11187331C279962D93D604243FD592CB9D0A926F422E47187521287E7156C5C4D603135569B9E9D09CF5D4A270F59746")
    spa, bssid = bytes.fromhex("02000000000a"), bytes.fromhex("02000000000b")
    ptk = kdf(hashlib.sha384, b"PMKz" + bytes(28), "PASN PTK Derivation", spa + bssid + dhss, 32 + 32 + 32)
    show("pasn.kck", ptk[:32]); show("pasn.tk", ptk[32:64]); show("pasn.kdk", ptk[64:])
    mic = hmac.new(ptk[:32], spa + bssid + b"\x01\x02" + b"\x03", hashlib.sha384).digest()[:24]
    show("pasn.mic(first=spa, second=bssid, data=0102, frame=03)", mic)

    print("# NAN pairing keys over the KDK above with SHA-384 (NCS-PK-PASN-256); initiator NMI = SPA, responder = BSSID")
    kdk = ptk[64:]
    show("nm-kek", kdf(hashlib.sha384, kdk, "NAN Management KEK Derivation", spa + bssid, 32))
    show("nd-pmk", kdf(hashlib.sha384, kdk, "NDP PMK Derivation", spa + bssid, 32))
    show("npk(opportunistic)", kdf(hashlib.sha384, kdk, "NAN Opportunistic NPK Derivation", spa + bssid, 32))


if __name__ == "__main__":
    main()
