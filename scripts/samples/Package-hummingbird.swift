// swift-tools-version: 6.2
// A Hummingbird server that depends on ForgeHummingbird from a checkout of this repository: the sample is its
// dependency line.
import PackageDescription

let package = Package(
    name: "SessionServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        // sample
    ],
    targets: [
        .executableTarget(
            name: "SessionServer",
            dependencies: [.product(name: "ForgeHummingbird", package: "forgehummingbird")]
        )
    ]
)
