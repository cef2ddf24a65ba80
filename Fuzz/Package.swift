// swift-tools-version: 6.2

import PackageDescription

// The fuzzers of what the stores read back from disk: built with libFuzzer and the address sanitizer by
// scripts/fuzz, which runs each target for a bounded time from its seed corpus in Corpus/.
let package = Package(
    name: "ForgeFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ForgeStorage", path: ".."),
        .package(name: "ForgeSQLite", path: "../Backends/SQLite"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "ForgeFuzz",
            dependencies: [
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeFileStore", package: "ForgeStorage"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
                .product(name: "ForgeSQLite", package: "ForgeSQLite"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
