// swift-tools-version: 6.2

import PackageDescription

// Hummingbird's `PersistDriver` on any ForgeStorage key-value store that keeps lifetimes (the in-memory twin,
// `DiskKVStore`, `SQLiteKVStore`, `PostgresKVStore`): sessions, caches and counters of a Hummingbird app on our stores.
// A package of its own, so that the library never depends on Hummingbird. Run the tests from the repository root; with
// a throwaway PostgreSQL server they also run against PostgreSQL:
// `scripts/postgres-for-tests swift test --package-path Adapters/ForgeHummingbird`.
let package = Package(
    name: "ForgeHummingbirdAdapter",
    platforms: [
        .macOS(.v14),
        .iOS(.v17),
        .tvOS(.v17),
    ],
    products: [
        .library(name: "ForgeHummingbird", targets: ["ForgeHummingbird"])
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Only the tests use these: sessions (HummingbirdAuth's `SessionMiddleware`), and the SQLite and PostgreSQL
        // stores.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(name: "ForgeBackends", path: "../../Backends"),
        .package(name: "ForgeSQLite", path: "../../Backends/SQLite"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // ForgePersistDriver: a PersistDriver over an AsyncExpiringKVStoring store; its run() reclaims expired values.
        .target(
            name: "ForgeHummingbird",
            dependencies: [
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The driver on the twin, a SQLite file and, when FORGE_POSTGRES_URL names a server, PostgreSQL (skipped
        // without it); sessions through HummingbirdAuth's middleware, tested with HummingbirdTesting.
        .testTarget(
            name: "ForgeHummingbirdTests",
            dependencies: [
                "ForgeHummingbird",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeStorageTesting", package: "ForgeStorage"),
                .product(name: "ForgePostgres", package: "ForgeBackends"),
                .product(name: "ForgeSQLite", package: "ForgeSQLite"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
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
