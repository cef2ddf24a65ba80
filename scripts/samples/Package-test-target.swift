// swift-tools-version: 6.2
// A package whose checkout of ForgeStorage is a folder named forge-storage: the sample is its test target.
import PackageDescription

let package = Package(
    name: "TaskFlow",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(path: "../../forge-storage")
    ],
    targets: [
        .target(name: "TaskFlow", dependencies: [.product(name: "ForgeStorage", package: "forge-storage")]),
        // sample
    ]
)
