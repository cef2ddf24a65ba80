// swift-tools-version: 6.2
// A package that depends on ForgeStorage: the sample is its dependency line.
import PackageDescription

let package = Package(
    name: "TaskFlow",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // sample
    ],
    targets: [
        .target(name: "TaskFlow", dependencies: [.product(name: "ForgeStorage", package: "forge-storage")])
    ]
)
