// swift-tools-version: 6.2

import PackageDescription

// Vapor's `Cache` and `SessionDriver` on any ForgeStorage key-value store that keeps lifetimes
// (`AsyncExpiringKVStoring`): `app.caches.use(.forge(store))`, `app.sessions.use(.forge(store))`. A package of its
// own, so that the library never depends on Vapor. Run the tests from the repository root; with a throwaway PostgreSQL
// server they also run against PostgreSQL: `scripts/postgres-for-tests swift test --package-path Adapters/ForgeVapor`.
let package = Package(
    name: "ForgeVapor",
    // ForgeStorage's and ForgePostgres's, which the tests use; Vapor needs less.
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ForgeVapor", targets: ["ForgeVapor"])
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: "../.."),
        // Only the tests use them: the cache and sessions over SQLite and PostgreSQL.
        .package(name: "ForgeSQLite", path: "../../Backends/SQLite"),
        .package(name: "ForgeBackends", path: "../../Backends"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // ForgeCache and ForgeSessionDriver, and the providers that register them.
        .target(
            name: "ForgeVapor",
            dependencies: [
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The cache and sessions over the in-memory twin, a SQLite file, and PostgreSQL when FORGE_POSTGRES_URL names
        // a server (those suites are skipped when it is not set).
        .testTarget(
            name: "ForgeVaporTests",
            dependencies: [
                "ForgeVapor",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeStorageTesting", package: "ForgeStorage"),
                .product(name: "ForgeSQLite", package: "ForgeSQLite"),
                .product(name: "ForgePostgres", package: "ForgeBackends"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "VaporTesting", package: "vapor"),
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
