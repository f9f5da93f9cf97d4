internal import NANCrypto
public import NANWire

/// PASN's anti-clogging (IEEE 802.11-2024 §12.13.3, the comeback of the PASN Parameters element): a
/// responder with several attempts in progress answers a frame 1 that carries no valid cookie with a
/// frame 2 of status 30 ("rejected temporarily") and a cookie, before any key exchange; the initiator sends
/// its frame 1 again with the cookie. So a flood of frame 1s costs the responder one HMAC each, and only a
/// source that receives at its address gets a key exchange run. The cookie is an HMAC of the source address
/// under a random secret that changes every ``rotation`` (the previous one still counts).
struct PASNComebackCookies {
    /// Status 30, rejected temporarily: frame 2 asking for frame 1 again with the cookie.
    static let status: UInt16 = 30
    /// Cookie length: HMAC-SHA-256 cut to 16 bytes.
    static let length = 16
    /// How long a secret makes cookies.
    static let rotation: Duration = .seconds(60)

    private var secret: [UInt8] = []
    private var previous: [UInt8] = []
    private var since: ContinuousClock.Instant = .now

    /// The cookie for frames 1 from `source`, now.
    mutating func cookie(for source: MACAddress, now: ContinuousClock.Instant = .now) -> [UInt8] {
        rotate(now)
        return Self.cookie(source, under: secret)
    }

    /// Whether `cookie` is one we gave `source`, at most two ``rotation``s ago (the current secret, or the
    /// previous one during the rotation after it).
    func isValid(_ cookie: [UInt8]?, for source: MACAddress, now: ContinuousClock.Instant = .now) -> Bool {
        guard let cookie, cookie.count == Self.length, !secret.isEmpty else { return false }
        let age = now - since
        if age < Self.rotation * 2, ConstantTime.equal(Self.cookie(source, under: secret), cookie) { return true }
        return age < Self.rotation && !previous.isEmpty
            && ConstantTime.equal(Self.cookie(source, under: previous), cookie)
    }

    /// The frame 2 that asks `source` to come back with its cookie after `after` TUs.
    mutating func frame(for source: MACAddress, after: UInt16) -> PASNAuthenticationFrame? {
        let parameters = PASNParameters(
            wrappedDataFormat: 0, comeback: .init(after: after, cookie: cookie(for: source)[...]), group: nil)
        guard let element = try? parameters.element(sequence: 2) else { return nil }
        return PASNAuthenticationFrame(sequence: 2, status: Self.status, elements: [element])
    }

    private mutating func rotate(_ now: ContinuousClock.Instant) {
        guard secret.isEmpty || now - since >= Self.rotation else { return }
        previous = now - since >= Self.rotation * 2 ? [] : secret
        secret = (try? SecureRandom.bytes(32)) ?? []
        since = now
    }

    private static func cookie(_ source: MACAddress, under secret: [UInt8]) -> [UInt8] {
        guard !secret.isEmpty, let mac = try? HMAC.sha256(key: secret, message: source.bytes) else { return [] }
        return Array(mac.prefix(length))
    }
}
