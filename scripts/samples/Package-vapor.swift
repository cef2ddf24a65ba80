// swift-tools-version: 6.2
// A Vapor server whose sessions and cache live in PostgreSQL through ForgeVapor, from a checkout of this repository:
// the sample is its dependency lines.
import PackageDescription

let package = Package(
    name: "WebServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        // sample
    ],
    targets: [
        .executableTarget(
            name: "WebServer",
            dependencies: [
                .product(name: "ForgeVapor", package: "forgevapor"),
                .product(name: "ForgePostgres", package: "backends"),
                .product(name: "Vapor", package: "vapor"),
            ]
        )
    ]
)
