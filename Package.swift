// swift-tools-version: 6.0
//
// waware: Wi-Fi Aware (NAN) for Linux.
//
// Layers, bottom to top (each may use only the ones below it):
//   CNetlink, CNetlinkShim, CCrypto  C system libraries (libnl-genl-3, libcrypto) and a macro shim
//   NANLogging                       the logging seam: the caller's log handler (no dependencies)
//   NANWire                          pure-Swift codec for NAN frames and attributes (no C, no I/O)
//   NANSystem                        the only Swift module with C or unsafe pointers: netlink, nl80211,
//                                    hwsim, libcrypto digests
//   NANEngine                        discovery engine: publish/subscribe/follow-up timed to DWs
//   WiFiAware                        the public API (services, paired devices, sessions, errors)
//   waware                           the command-line tool; imports no C module
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "waware",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WiFiAware", targets: ["WiFiAware"]),
        .library(name: "NANWire", targets: ["NANWire"]),
        .executable(name: "waware", targets: ["waware"]),
        .executable(name: "nan-bench", targets: ["nan-bench"]),
        .executable(name: "aware-example", targets: ["aware-example"]),
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
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // Swift layers.
        .target(name: "NANWire", swiftSettings: swiftSettings),
        // The logging seam: the caller's log handler, taken by every library (no dependencies).
        .target(name: "NANLogging", swiftSettings: swiftSettings),
        .target(
            name: "NANSystem",
            dependencies: ["CNetlink", "CNetlinkShim", "CCrypto", "NANWire"],
            swiftSettings: swiftSettings
        ),
        .target(name: "NANEngine", dependencies: ["NANLogging", "NANWire", "NANSystem"], swiftSettings: swiftSettings),
        .target(
            name: "WiFiAware",
            dependencies: ["NANLogging", "NANWire", "NANSystem", "NANEngine"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "waware", dependencies: ["WiFiAware", "NANLogging", "NANSystem", "NANWire", "NANEngine"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "nan-bench",
            dependencies: ["NANWire", "NANSystem"],
            path: "tools/bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "aware-example",
            dependencies: ["WiFiAware"],
            path: "Examples/aware-example",
            swiftSettings: swiftSettings
        ),

        // Tests: one target per module, next to what they test.
        .testTarget(name: "NANWireTests", dependencies: ["NANWire"], resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(name: "NANSystemTests", dependencies: ["NANSystem", "NANWire"], resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(name: "NANEngineTests", dependencies: ["NANEngine", "NANWire", "NANSystem"], swiftSettings: swiftSettings),
        .testTarget(name: "WiFiAwareTests", dependencies: ["WiFiAware", "NANWire", "NANEngine", "NANSystem"], swiftSettings: swiftSettings),
        .testTarget(name: "CLITests", dependencies: ["waware", "NANSystem", "NANWire", "NANEngine"], swiftSettings: swiftSettings),
    ]
)
