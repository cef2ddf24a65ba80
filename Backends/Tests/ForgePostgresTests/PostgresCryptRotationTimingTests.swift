import ForgeCrypt
import ForgePostgres
import Foundation
import Testing

/// How long a rotation of 10,000 secrets takes on the test server: a measurement, printed, never checked, run only with
/// `FORGE_TIMING_TESTS=1` (as the library's timing tests).
@Suite(
    .enabled(if: TestServer.url != nil, TestServer.skipReason),
    .enabled(
        if: ProcessInfo.processInfo.environment["FORGE_TIMING_TESTS"] == "1",
        "a measurement of time: set FORGE_TIMING_TESTS=1 to run it"
    ),
    .timeLimit(.minutes(5))
)
struct PostgresCryptRotationTimingTests {
    @Test func aRotationOf10000Secrets() async throws {
        let oldKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        let newKey = MasterKey.symmetric(SymmetricKey(size: .bits256))
        try await TestServer.withRotatedCrypts(masterKey: oldKey) { stores in
            let count = 10_000
            let secret = String(repeating: "s3cr3t-", count: 9)
            for index in 0..<count { try await stores[0].set(secret, for: CryptKey<String>(key: "api-token-\(index)")) }

            let clock = ContinuousClock()
            var rotated = stores[0]
            let there = try await clock.measure { rotated = try await stores[0].rotateMasterKey(to: newKey) }
            let back = try await clock.measure { rotated = try await rotated.rotateMasterKey(to: oldKey) }

            #expect(try await rotated.itemCount() == count)
            print(
                "PostgresCrypt rotation of \(count) secrets of \(secret.utf8.count) bytes: \(there), then back: \(back)"
            )
        }
    }
}
