// swift-tools-version: 6.2

import PackageDescription

// The TaskFlow example app's service layer, its tests, and the `forge` command-line tool. The disk demo builds only
// the library and swift-argument-parser: `swift run --package-path Examples forge demo`. The `Postgres` trait adds
// `forge demo --postgres` and `forge inspect --postgres` (TaskFlow on the PostgreSQL stores of ../Backends), which
// build postgres-nio and SwiftNIO: `swift run --package-path Examples --traits Postgres forge demo --postgres URL`.
// The `SQLite` trait adds `forge demo --sqlite` and `forge inspect --sqlite` (TaskFlow on the SQLite stores of
// ../Backends/SQLite, sharing one database file), which build GRDB:
// `swift run --package-path Examples --traits SQLite forge demo --sqlite FILE`.
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
        ),
        .trait(
            name: "SQLite",
            description: "forge demo --sqlite and forge inspect --sqlite, and TaskFlow's tests on SQLite"
        ),
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: ".."),
        .package(path: "../Backends"),
        .package(path: "../Backends/SQLite"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
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
                .product(name: "ForgeSQLite", package: "SQLite", condition: .when(traits: ["SQLite"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TaskFlowTests",
            dependencies: [
                "TaskFlow",
                .product(name: "ForgeStorage", package: "ForgeStorage"),
                .product(name: "ForgePostgres", package: "Backends", condition: .when(traits: ["Postgres"])),
                .product(name: "ForgeSQLite", package: "SQLite", condition: .when(traits: ["SQLite"])),
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
                .product(name: "ForgeSQLite", package: "SQLite", condition: .when(traits: ["SQLite"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                // The inspect tests make databases that lack a table of the stores, as another version may leave one.
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SQLite"])),
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
