// swift-tools-version: 6.2
// A server package that depends on ForgePostgres from a checkout of this repository: the sample is its dependency line.
import PackageDescription

let package = Package(
    name: "TaskServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        // sample
    ],
    targets: [
        .executableTarget(name: "TaskServer", dependencies: [.product(name: "ForgePostgres", package: "backends")])
    ]
)
