// swift-tools-version: 6.0
//
// waware: Wi-Fi Aware (NAN) for Linux.
//
// Layers, bottom to top (each may use only the ones below it):
//   CNetlink, CNetlinkShim           C system libraries (libnl-genl-3) and a macro shim
//   CSystemShim                      capget/capset and prctl, which Swift cannot call (variadic, undeclared)
//   CQUIC                            QUIC connections over ngtcp2 + GnuTLS, both loaded with dlopen on first use
//                                    (headers from libngtcp2-dev, libngtcp2-crypto-gnutls-dev, libgnutls28-dev)
//   CCrypto, CSSL                    C system libraries libcrypto and libssl (OpenSSL 3)
//   NANLogging                       the logging seam: the caller's log handler (no dependencies)
//   NANWire                          pure-Swift codec for NAN frames and attributes (no C, no I/O)
//   NANCrypto                        hashes, HMAC, PBKDF2, the IEEE 802.11 KDF, AES key wrap, random bytes over
//                                    libcrypto (the only module importing CCrypto/CSSL; C in OpenSSL+*.swift)
//   NANSystem                        the only other Swift module with C or unsafe pointers: netlink, nl80211,
//                                    hwsim
//   NANEngine                        the NAN runtime, discovery (DW-timed), data paths, pairing
//   NANDaemon                        the daemon's protocol (JSON lines over a Unix socket), its server (clients,
//                                    limits, one engine per adapter) and the library's connection to it
//   WiFiAware                        the public API (services, paired devices, sessions, errors), and behind
//                                    `@_spi(Tools)` the tool's own access to adapters, hwsim and nl80211 events
//   WiFiAwareNetwork                 the Network-framework-shaped layer over the API: NetworkListener, NetworkBrowser,
//                                    NetworkConnection with `.wifiAware(...)`, protocol stacks, TLV and Coder messages
//   waware                           the command-line tool: WiFiAware (and its Tools SPI), NANWire's values
//   wawared                          the daemon: one owner per radio, serving programs over /run/waware/wawared.socket
import PackageDescription

/// The layer rule: the Swift modules each Swift module of the library and the tool may import (C modules
/// come on top, in the system layer only). The one source: the targets below take their dependencies from
/// it, and LayerRuleTests (Tests/CLITests) reads this table from this file and checks every import against it.
/// `waware` goes through the API: its hardware commands (list, info, probe, sim, events, cluster, diagnose) use
/// WiFiAware's `@_spi(Tools)` surface; it imports NANWire for the value types the API speaks in (MACAddress,
/// ServiceID) and for `decode`, which is the codec's own printout.
let layerRule: [String: [String]] = [
    "NANLogging": [],
    "NANWire": [],
    "NANCrypto": ["NANWire"],
    "NANSystem": ["NANWire", "NANCrypto"],
    "NANEngine": ["NANLogging", "NANWire", "NANCrypto", "NANSystem"],
    "NANDaemon": ["NANLogging", "NANWire", "NANSystem", "NANEngine"],
    "WiFiAware": ["NANLogging", "NANWire", "NANCrypto", "NANSystem", "NANEngine", "NANDaemon"],
    "WiFiAwareNetwork": ["WiFiAware"],
    "waware": ["WiFiAware", "NANWire"],
    "wawared": ["NANDaemon", "NANEngine", "NANSystem", "NANLogging"],
]

/// The dependencies of a Swift layer: its Swift modules by the rule, then `c`, its C modules.
func layer(_ name: String, c: [Target.Dependency] = []) -> [Target.Dependency] {
    (layerRule[name] ?? []).map { .target(name: $0) } + c
}

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// For code written as Apple's samples are (the seeds of issue 27): Swift 6 without internal imports by
/// default, so that `import WiFiAwareNetwork` lets an app declare `public` extensions of its types.
let seedSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "waware",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WiFiAware", targets: ["WiFiAware"]),
        .library(name: "NANWire", targets: ["NANWire"]),
        .library(name: "WiFiAwareNetwork", targets: ["WiFiAwareNetwork"]),
        .executable(name: "waware", targets: ["waware"]),
        .executable(name: "wawared", targets: ["wawared"]),
        .executable(name: "nan-bench", targets: ["nan-bench"]),
        .executable(name: "storm-bench", targets: ["storm-bench"]),
        .executable(name: "aware-example", targets: ["aware-example"]),
        .executable(name: "seed-connection", targets: ["seed-connection"]),
        .executable(name: "network-seed", targets: ["network-seed"]),
        .executable(name: "network-tn3213", targets: ["network-tn3213"]),
        .executable(name: "tls-throughput-meter", targets: ["tls-throughput-meter"]),
        .executable(name: "connection-meter", targets: ["connection-meter"]),
        .executable(name: "quic-meter", targets: ["quic-meter"]),
    ],
    targets: [
        // C layer.
        .systemLibrary(
            name: "CNetlink",
            pkgConfig: "libnl-genl-3.0",
            providers: [.apt(["libnl-3-dev", "libnl-genl-3-dev"])]
        ),
        .target(
            name: "CNetlinkShim",
            dependencies: ["CNetlink"],
            cSettings: [.define("_GNU_SOURCE")]
        ),
        .target(name: "CSystemShim", cSettings: [.define("_GNU_SOURCE")]),
        // Not a system library: GnuTLS and ngtcp2 are dlopen'ed on the first QUIC connection, so that processes
        // without QUIC never map them (the idle-memory budget); only their headers are needed to build.
        .target(name: "CQUIC", cSettings: [.define("_GNU_SOURCE")], linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CSSL",
            pkgConfig: "libssl",
            providers: [.apt(["libssl-dev"])]
        ),

        // Swift layers.
        .target(name: "NANWire", swiftSettings: swiftSettings),
        // The logging seam: the caller's log handler, taken by every library (no dependencies).
        .target(name: "NANLogging", swiftSettings: swiftSettings),
        .target(
            name: "NANCrypto", dependencies: layer("NANCrypto", c: ["CCrypto", "CSSL"]), swiftSettings: swiftSettings),
        .target(
            name: "NANSystem",
            dependencies: layer("NANSystem", c: ["CNetlink", "CNetlinkShim", "CSystemShim", "CQUIC"]),
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NANEngine", dependencies: layer("NANEngine"),
            swiftSettings: swiftSettings),
        .target(name: "NANDaemon", dependencies: layer("NANDaemon"), swiftSettings: swiftSettings),
        .target(
            name: "WiFiAware",
            dependencies: layer("WiFiAware"),
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WiFiAwareNetwork",
            dependencies: layer("WiFiAwareNetwork"),
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "waware",
            dependencies: layer("waware"),
            swiftSettings: swiftSettings),
        .executableTarget(name: "wawared", dependencies: layer("wawared"), swiftSettings: swiftSettings),
        .executableTarget(
            name: "nan-bench",
            dependencies: ["NANWire", "NANCrypto", "NANSystem"],
            path: "tools/bench",
            swiftSettings: swiftSettings
        ),
        // The spoofed-frame storm against the discovery engine (tools/storm-bench runs it).
        .executableTarget(
            name: "storm-bench",
            dependencies: ["NANEngine", "NANSystem", "NANWire"],
            path: "tools/storm",
            swiftSettings: swiftSettings
        ),
        // TLS throughput as a ratio of plain TCP, over loopback or a NAN data path (tools/tls-throughput-meter).
        .executableTarget(
            name: "tls-throughput-meter",
            dependencies: ["NANCrypto", "NANSystem", "NANWire"],
            path: "tools/tls-throughput-meter",
            swiftSettings: swiftSettings
        ),
        // Connection figures over a data path with the public API: browse-to-ready, round trips, memory per
        // connection (tools/connection-bench).
        .executableTarget(
            name: "connection-meter",
            dependencies: ["WiFiAware", "NANSystem", "NANWire"],
            path: "tools/connection-meter",
            swiftSettings: swiftSettings
        ),
        // QUIC against TLS over TCP over one data path (tools/quic-bench, scenario quic-bench).
        .executableTarget(
            name: "quic-meter",
            dependencies: ["WiFiAware", "NANSystem", "NANWire"],
            path: "tools/quic-meter",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "aware-example",
            dependencies: ["WiFiAware"],
            path: "Examples/aware-example",
            swiftSettings: swiftSettings
        ),
        // The first seed's listener / browser / connection code (tools/vm/scenarios/connection-seed-example.sh).
        .executableTarget(
            name: "seed-connection",
            dependencies: ["WiFiAware"],
            path: "Examples/seed-connection",
            swiftSettings: swiftSettings
        ),
        // The first seed of issue 27 as written (Apple's "Connecting devices for peer-to-peer Wi-Fi"), over the
        // Network-framework-shaped layer (tools/vm/scenarios/network-seed-example.sh).
        .executableTarget(
            name: "network-seed",
            dependencies: ["WiFiAwareNetwork"],
            path: "Examples/network-seed",
            swiftSettings: seedSwiftSettings
        ),
        // TN3213's samples (withNetworkConnection, TLV, Coder, UDP, an app-supplied peer identifier) end to end
        // (tools/vm/scenarios/network-tn3213-example.sh).
        .executableTarget(
            name: "network-tn3213",
            dependencies: ["WiFiAwareNetwork"],
            path: "Examples/network-tn3213",
            swiftSettings: seedSwiftSettings
        ),

        // Tests: one target per module, next to what they test.
        .testTarget(
            name: "NANWireTests", dependencies: ["NANWire"], resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),
        .testTarget(name: "NANCryptoTests", dependencies: ["NANCrypto", "NANWire"], swiftSettings: swiftSettings),
        .testTarget(
            name: "NANSystemTests", dependencies: ["NANSystem", "NANWire", "NANCrypto"], resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NANEngineTests", dependencies: ["NANEngine", "NANWire", "NANCrypto", "NANSystem"],
            exclude: ["Pairing/Fixtures"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NANDaemonTests", dependencies: ["NANDaemon", "NANEngine", "NANSystem", "NANWire"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WiFiAwareTests", dependencies: ["WiFiAware", "NANWire", "NANCrypto", "NANEngine", "NANSystem"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WiFiAwareNetworkTests", dependencies: ["WiFiAwareNetwork", "WiFiAware"],
            swiftSettings: seedSwiftSettings),
        .testTarget(
            name: "CLITests", dependencies: ["waware", "NANCrypto", "NANSystem", "NANWire", "NANEngine", "NANDaemon"],
            swiftSettings: swiftSettings),
    ]
)
