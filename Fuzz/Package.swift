// swift-tools-version: 6.2

import PackageDescription

// The fuzzers of what the stores read back from disk: built with libFuzzer and the address sanitizer by
// scripts/fuzz, which runs each target for a bounded time from its seed corpus in Corpus/.
let package = Package(
    name: "ForgeFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "ForgeStorage", path: "..")],
    targets: [
        .executableTarget(
            name: "ForgeFuzz",
            dependencies: [
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeFileStore", package: "ForgeStorage"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
