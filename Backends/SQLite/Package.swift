// swift-tools-version: 6.2

import PackageDescription

// ForgeStorage's stores on one SQLite database file, through GRDB. A package of its own, so that an app that uses it
// resolves GRDB alone (not postgres-nio), and the root package stays free of database drivers.
// Run the tests from the repository root: `swift test --package-path Backends/SQLite`.
let package = Package(
    name: "ForgeSQLite",
    platforms: [
        .iOS(.v17),
        .macOS(.v14),
        .tvOS(.v17),
        .watchOS(.v10),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "ForgeSQLite", targets: ["ForgeSQLite"])
    ],
    dependencies: [
        .package(name: "ForgeStorage", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // SQLiteKVStore, SQLiteFileStore and SQLiteCrypt: a KVBackend, a FileBackend and a CryptBackend on tables of a
        // SQLite database that any number of stores share.
        .target(
            name: "ForgeSQLite",
            dependencies: [
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
                .product(name: "ForgeFileStore", package: "ForgeStorage"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The process the crash test kills while it writes to a SQLiteKVStore; not a product.
        .executableTarget(
            name: "ForgeSQLiteCrashWriter",
            dependencies: ["ForgeSQLite"],
            path: "Tests/ForgeSQLiteCrashWriter"
        ),
        .testTarget(
            name: "ForgeSQLiteTests",
            dependencies: [
                "ForgeSQLite",
                "ForgeSQLiteCrashWriter",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
                .product(name: "ForgeFileStore", package: "ForgeStorage"),
                .product(name: "ForgeStorageTesting", package: "ForgeStorage"),
                .product(name: "GRDB", package: "GRDB.swift"),
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
