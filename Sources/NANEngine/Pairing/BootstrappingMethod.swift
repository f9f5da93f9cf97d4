public import NANWire

/// Bootstrapping methods waware offers (Wi-Fi Aware 4.0 NPBA bitmap): opportunistic, PIN and passphrase,
/// each shown on one side and typed on the other. QR and NFC are left out.
public typealias BootstrappingMethods = PairingBootstrappingAttribute.Methods

extension PairingBootstrappingAttribute.Methods {
    /// The methods waware can carry, in order of preference when choosing one.
    public static let supportedByWaware: [BootstrappingMethods] = [
        .opportunistic, .pinDisplay, .pinKeypad, .passphraseDisplay, .passphraseKeypad,
    ]

    /// The peer's side of a single method: display ↔ keypad, opportunistic ↔ opportunistic (as hostap's
    /// `nan_complement_pbm`); empty for a method waware does not carry or a set of several.
    public var complement: BootstrappingMethods {
        switch self {
        case .opportunistic: .opportunistic
        case .pinDisplay: .pinKeypad
        case .pinKeypad: .pinDisplay
        case .passphraseDisplay: .passphraseKeypad
        case .passphraseKeypad: .passphraseDisplay
        default: []
        }
    }

    /// Whether the method needs a password (PIN or passphrase) for the SAE that follows.
    public var needsPassword: Bool {
        !isDisjoint(with: [.pinDisplay, .pinKeypad, .passphraseDisplay, .passphraseKeypad])
    }

    /// The method the requester uses: the first of ours (in waware's preference) whose complement the
    /// peer advertises; nil when none fits.
    public static func choose(local: BootstrappingMethods, peer: BootstrappingMethods) -> BootstrappingMethods? {
        supportedByWaware.first { local.contains($0) && peer.contains($0.complement) }
    }
}
