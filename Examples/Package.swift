// swift-tools-version: 6.2

import PackageDescription

// The TaskFlow example app's service layer, its tests, and the `forge` command-line tool. The disk demo builds only
// the library and swift-argument-parser: `swift run --package-path Examples forge demo`. The `Postgres` trait adds
// `forge demo --postgres` and `forge inspect --postgres` (TaskFlow on the PostgreSQL stores of ../Backends), which
// build postgres-nio and SwiftNIO: `swift run --package-path Examples --traits Postgres forge demo --postgres URL`.
let package = Package(
    name: "Examples",
    platforms: [
        .macOS(.v14)
    ],
    products: [
        .executable(name: "forge", targets: ["forge"]),
        .library(name: "TaskFlow", targets: ["TaskFlow"]),
    ],
    traits: [
        .trait(
            name: "Postgres",
            description: "forge demo --postgres and forge inspect --postgres, and TaskFlow's tests on PostgreSQL"
        )
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: ".."),
        .package(path: "../Backends"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "TaskFlow",
            dependencies: [.product(name: "ForgeStorage", package: "ForgeStorage")]
        ),
        .executableTarget(
            name: "forge",
            dependencies: [
                "TaskFlow",
                .product(name: "ForgeStorage", package: "ForgeStorage"),
                .product(name: "ForgePostgres", package: "Backends", condition: .when(traits: ["Postgres"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TaskFlowTests",
            dependencies: [
                "TaskFlow",
                .product(name: "ForgeStorage", package: "ForgeStorage"),
                .product(name: "ForgePostgres", package: "Backends", condition: .when(traits: ["Postgres"])),
                .product(name: "ForgeStorageTesting", package: "ForgeStorage"),
            ]
        ),
        .testTarget(
            name: "ForgeToolTests",
            dependencies: [
                "forge",
                "TaskFlow",
                .product(name: "ForgeStorage", package: "ForgeStorage"),
                .product(name: "ForgePostgres", package: "Backends", condition: .when(traits: ["Postgres"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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
