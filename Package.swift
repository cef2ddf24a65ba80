// swift-tools-version: 6.2

import PackageDescription

/// Platforms where CryptoKit is missing and swift-crypto stands in for it.
let platformsWithoutCryptoKit: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

let package = Package(
    name: "ForgeStorage",
    platforms: [
        .iOS(.v17),
        .macOS(.v14),
        .tvOS(.v17),
        .watchOS(.v10),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "ForgeStorage", targets: ["ForgeStorage"]),
        .library(name: "ForgeKVStore", targets: ["ForgeKVStore"]),
        .library(name: "ForgeFileStore", targets: ["ForgeFileStore"]),
        .library(name: "ForgeCrypt", targets: ["ForgeCrypt"]),
        .library(name: "ForgeStorageTesting", targets: ["ForgeStorageTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2")
    ],
    targets: [
        // Shared internals: the lock, directory resolution, the atomic file writer, name sanitising.
        // Debug builds hold the fault sweep's seam (`SystemFaults.swift`); release builds make every call directly.
        .target(
            name: "ForgeCore",
            dependencies: ["CForgeSystem"],
            swiftSettings: [.define("FORGE_SYSTEM_FAULTS", .when(configuration: .debug))]
        ),
        // The one system call Swift cannot make itself: Linux's `openat2`, through the variadic `syscall`.
        .target(name: "CForgeSystem"),

        .target(name: "ForgeKVStore", dependencies: ["ForgeCore"]),
        .target(name: "ForgeFileStore", dependencies: ["ForgeCore"]),
        .target(
            name: "ForgeCrypt",
            dependencies: [
                "ForgeCore",
                .product(
                    name: "Crypto",
                    package: "swift-crypto",
                    condition: .when(platforms: platformsWithoutCryptoKit)
                ),
                .product(
                    name: "CryptoExtras",
                    package: "swift-crypto",
                    condition: .when(platforms: platformsWithoutCryptoKit)
                ),
            ]
        ),
        .target(name: "ForgeStorage", dependencies: ["ForgeKVStore", "ForgeFileStore", "ForgeCrypt"]),
        // Conformance suites, fault injection and operation logs for tests; imports Swift Testing.
        .target(
            name: "ForgeStorageTesting",
            dependencies: ["ForgeKVStore", "ForgeFileStore", "ForgeCrypt", "ForgeCore"]
        ),

        .testTarget(name: "ForgeCoreTests", dependencies: ["ForgeCore", "ForgeTestSupport"]),
        .testTarget(
            name: "ForgeKVStoreTests",
            dependencies: ["ForgeKVStore", "ForgeCore", "ForgeStorageTesting", "ForgeTestSupport"]
        ),
        .testTarget(
            name: "ForgeFileStoreTests",
            dependencies: ["ForgeFileStore", "ForgeCore", "ForgeStorageTesting", "ForgeTestSupport"]
        ),
        .testTarget(
            name: "ForgeCryptTests",
            dependencies: ["ForgeCrypt", "ForgeCore", "ForgeStorageTesting", "ForgeTestSupport"]
        ),
        .testTarget(name: "ForgeStorageTestingTests", dependencies: ["ForgeStorageTesting", "ForgeCore"]),
        // Mutation testing of the conformance suites: correct reference stores, and broken variants each suite
        // must catch.
        .testTarget(
            name: "ForgeConformanceMutationTests",
            dependencies: ["ForgeStorageTesting", "ForgeKVStore", "ForgeFileStore", "ForgeCrypt", "ForgeCore"]
        ),

        // Test-only helpers (seeded generator, hostile names, crash plan, small volumes); not a product.
        .target(name: "ForgeTestSupport", dependencies: ["ForgeCore"], path: "Tests/ForgeTestSupport"),
        // The child process the crash tests kill while it writes to every disk store; not a product.
        .executableTarget(
            name: "ForgeCrashWriter",
            dependencies: ["ForgeKVStore", "ForgeFileStore", "ForgeCrypt", "ForgeCore", "ForgeTestSupport"],
            path: "Tests/ForgeCrashWriter"
        ),
        // The fault sweep: fails each system call of the disk stores' operations in turn, and crashes after each;
        // run by .ci/run (`swift run ForgeFaultSweep`), on a debug build, which has the seam. Not a product.
        .executableTarget(
            name: "ForgeFaultSweep",
            dependencies: ["ForgeKVStore", "ForgeFileStore", "ForgeCrypt", "ForgeCore"],
            path: "Tests/ForgeFaultSweep",
            // The table a run writes, which the Guarantees article quotes.
            exclude: ["Results"]
        ),
        // The reference API's samples (the reference documents outside this repository), copied verbatim, compiled
        // and run: the reference's promises, checked against the library as it is.
        .testTarget(
            name: "ReferenceSampleTests",
            dependencies: ["ForgeKVStore", "ForgeFileStore", "ForgeCrypt", "ForgeStorageTesting", "ForgeTestSupport"]
        ),
        .testTarget(
            name: "ForgeReliabilityTests",
            dependencies: [
                "ForgeCrashWriter", "ForgeKVStore", "ForgeFileStore", "ForgeCrypt", "ForgeCore", "ForgeTestSupport",
            ]
        ),
    ]
)

for target in package.targets where target.name != "CForgeSystem" {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    // The reference's samples compile as a user's code does, with no upcoming feature.
    if target.name != "ReferenceSampleTests" {
        settings.append(.enableUpcomingFeature("ExistentialAny"))
        settings.append(.enableUpcomingFeature("MemberImportVisibility"))
        settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    }
    target.swiftSettings = settings
}
