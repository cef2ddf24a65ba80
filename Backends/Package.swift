// swift-tools-version: 6.2

import PackageDescription

// Network backends for ForgeStorage's async protocols, kept apart from the library so that the library never depends
// on a database driver. Run the tests from the repository root against a throwaway server:
// `scripts/postgres-for-tests swift test --package-path Backends`.
let package = Package(
    name: "ForgeBackends",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ForgePostgres", targets: ["ForgePostgres"])
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: ".."),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // postgres-nio depends on it already: `PostgresClient` is a `Service`, and so is `PostgresStoreService`.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // PostgresKVStore: an AsyncKVStreaming store on a PostgreSQL table, with streams through LISTEN/NOTIFY.
        .target(
            name: "ForgePostgres",
            dependencies: [
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
                .product(name: "ForgeFileStore", package: "ForgeStorage"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // One service instance of the tests of processes sharing a namespace: streams a key, sets it on request.
        .executableTarget(
            name: "PostgresStreamPeer",
            dependencies: [
                "ForgePostgres",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        // Runs against the server FORGE_POSTGRES_URL names; skipped when it is not set.
        .testTarget(
            name: "ForgePostgresTests",
            dependencies: [
                "ForgePostgres",
                "PostgresStreamPeer",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
                .product(name: "ForgeFileStore", package: "ForgeStorage"),
                .product(name: "ForgeStorageTesting", package: "ForgeStorage"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
