// swift-tools-version: 6.2

import PackageDescription

// What ForgeStorage's stores report (`reportingEvents(label:to:)`), turned into swift-log records, swift-metrics
// metrics and swift-distributed-tracing spans. A package of its own, so that the library depends on swift-crypto alone.
// Run the tests from the repository root: `swift test --package-path Adapters/Observability`.
let package = Package(
    name: "ForgeObservability",
    platforms: [
        .iOS(.v17),
        .macOS(.v14),
        .tvOS(.v17),
        .watchOS(.v10),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "ForgeObservability", targets: ["ForgeObservability"])
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: "../.."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        // StoreObservability: one handler of store events that logs, counts and traces them.
        .target(
            name: "ForgeObservability",
            dependencies: [
                // Every store module re-exports `StoreEvent`; the key-value one is the smallest to build.
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "ForgeObservabilityTests",
            dependencies: [
                "ForgeObservability",
                .product(name: "ForgeStorage", package: "ForgeStorage"),
                .product(name: "ForgeStorageTesting", package: "ForgeStorage"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
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
