public import NANSystem

/// Who may use the daemon: root, and the members of one group (``DaemonProtocol/group``). Decided on the
/// credentials the kernel gives for the connection (`SO_PEERCRED`), never on what a client says.
public struct AccessPolicy: Sendable {
    /// The group whose members are let in.
    public var group: String
    /// Users let in besides root and the group (the daemon's own user, tests).
    public var users: Set<UInt32>

    /// Root and members of `group`.
    public init(group: String = DaemonProtocol.group, users: Set<UInt32> = []) {
        self.group = group
        self.users = users
    }

    /// nil when `peer` may use the daemon, else the one line to refuse it with.
    public func refusal(of peer: PeerCredentials, isMember: (String) -> Bool) -> DaemonError? {
        if peer.isRoot || users.contains(peer.userID) || isMember(group) { return nil }
        return .permissionDenied(
            "wawared refuses uid \(peer.userID): only root and members of group '\(group)' may use it (sudo usermod -aG \(group) USER)"
        )
    }

    /// nil when `peer` may use the daemon (group looked up in the system's group database).
    public func refusal(of peer: PeerCredentials) -> DaemonError? {
        refusal(of: peer) { peer.isMember(ofGroup: $0) }
    }
}
