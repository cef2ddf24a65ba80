// swift-tools-version: 6.2

import PackageDescription

// A swift-configuration `ConfigProvider` on any ForgeStorage key-value store, kept apart from the library so that the
// library never depends on swift-configuration. Run the tests from the repository root; with a throwaway PostgreSQL
// server they also run against PostgreSQL:
// `scripts/postgres-for-tests swift test --package-path Adapters/Configuration`.
let package = Package(
    name: "ForgeConfigurationAdapter",
    // swift-configuration's `Configuration 1.0` availability.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ForgeConfiguration", targets: ["ForgeConfiguration"])
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: "../.."),
        // Only the tests use it: the provider over PostgreSQL.
        .package(name: "ForgeBackends", path: "../../Backends"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // ForgeConfigProvider: a ConfigProvider on an AsyncKVStreaming store, and the Service that follows it.
        .target(
            name: "ForgeConfiguration",
            dependencies: [
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The provider over the in-memory twin, and over PostgreSQL when FORGE_POSTGRES_URL names a server (those
        // suites are skipped when it is not set).
        .testTarget(
            name: "ForgeConfigurationTests",
            dependencies: [
                "ForgeConfiguration",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgePostgres", package: "ForgeBackends"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ConfigurationTesting", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
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
