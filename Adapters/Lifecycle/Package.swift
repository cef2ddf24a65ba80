// swift-tools-version: 6.2

import PackageDescription

// ForgeStorage's stores in a swift-service-lifecycle `ServiceGroup`: `StoreFlushService` writes what a write-behind
// store (`UserDefaultsKVStore`, or any `StoreFlushing` store) holds pending on a graceful shutdown. A package of its own,
// so that the library depends on swift-crypto alone; the PostgreSQL stores' service is ForgePostgres's
// `PostgresStoreService`. Run the tests from the repository root: `swift test --package-path Adapters/Lifecycle`.
let package = Package(
    name: "ForgeServiceLifecycle",
    platforms: [
        .iOS(.v17),
        .macOS(.v14),
        .tvOS(.v17),
        .watchOS(.v10),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "ForgeServiceLifecycle", targets: ["ForgeServiceLifecycle"])
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // StoreFlushing, and StoreFlushService: a Service that flushes write-behind stores on shutdown.
        .target(
            name: "ForgeServiceLifecycle",
            dependencies: [
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ForgeServiceLifecycleTests",
            dependencies: [
                "ForgeServiceLifecycle",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeStorageTesting", package: "ForgeStorage"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
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
