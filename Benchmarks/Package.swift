// swift-tools-version: 6.2

import PackageDescription

// Benchmarks for ForgeStorage: each store operation beside the raw limit (POSIX calls with the same codec and the
// same durability) and beside the peer a user would pick instead. Run them with `scripts/benchmarks` from the
// repository root; it writes Benchmarks/Results/.
let package = Package(
    name: "ForgeStorageBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ForgeStorage", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // PostgresKVStore, and postgres-nio and swift-log at the versions Backends/Package.swift names, for its limit.
        .package(name: "ForgeBackends", path: "../Backends"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // SQLiteKVStore, beside GRDB's own key-value table.
        .package(name: "ForgeSQLite", path: "../Backends/SQLite"),
    ],
    targets: [
        // The limits (raw POSIX reads and writes, the library's JSON settings) and the shared fixtures.
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")]
        ),
        // One operation in a loop, without the harness, for `valgrind --tool=callgrind` (see its source).
        .executableTarget(
            name: "BenchmarkProfiler",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeFileStore", package: "ForgeStorage"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The writing process of KVStreamLatency: one stamped write of a DiskKVStore key (or the limit's raw atomic
        // write) per line of its input.
        .executableTarget(
            name: "KVStreamWriter",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
            ]
        ),
        // Cross-process latency, outside the harness: a write in a KVStreamWriter child to its value in this
        // process's ReactiveKVStore stream, beside a raw write and a blocking inotify read (see its source). It
        // depends on KVStreamWriter so that building or running it builds the writer beside it.
        .executableTarget(
            name: "KVStreamLatency",
            dependencies: [
                "BenchmarkSupport",
                "KVStreamWriter",
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
            ]
        ),
        // The SQLite stores beside GRDB written as its maintainers would, and beside DiskKVStore, the pairs taking turns
        // round by round in one process (see its source); scripts/benchmarks writes Results/sqlite-vs-grdb.md.
        .executableTarget(
            name: "SQLiteVersusGRDB",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ForgeSQLite", package: "ForgeSQLite"),
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "KVBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/KVBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // SQLiteKVStore beside a key-value table in GRDB, at equal durability; a rotation of SQLiteCrypt's master key
        // beside the same work in one GRDB transaction.
        .executableTarget(
            name: "SQLiteBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ForgeSQLite", package: "ForgeSQLite"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/SQLiteBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "FileBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ForgeFileStore", package: "ForgeStorage"),
            ],
            path: "Benchmarks/FileBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "VaultBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/VaultBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // PostgresKVStore beside raw postgres-nio statements of the same SQL, and a PostgresCrypt rotation of 10,000
        // secrets, against the server FORGE_POSTGRES_URL names (run under scripts/postgres-for-tests); without it the
        // target registers no benchmark.
        .executableTarget(
            name: "PostgresBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ForgeKVStore", package: "ForgeStorage"),
                .product(name: "ForgeCrypt", package: "ForgeStorage"),
                .product(name: "ForgePostgres", package: "ForgeBackends"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/PostgresBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    target.swiftSettings = settings
}
