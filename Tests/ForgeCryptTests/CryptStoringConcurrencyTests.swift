import ForgeCrypt
import Foundation
import Testing

/// Many tasks hammering one store with every call at once, run against each store the package ships.
///
/// Also run under ThreadSanitizer (`swift test --sanitize=thread`), which reports any data race.
@Suite("CryptStoring under concurrency")
struct CryptStoringConcurrencyTests {
    /// A secret that shows whether it was read whole: 256 copies of one letter.
    private static func secret(_ number: Int) -> String {
        String(repeating: String(UnicodeScalar(UInt8(65 + number % 26))), count: 256)
    }

    private static func isWhole(_ secret: String) -> Bool {
        secret.utf8.count == 256 && Set(secret).count == 1
    }

    @Test(arguments: CryptStoreKind.allCases)
    func mixedCallsFromManyTasksReadOnlyWholeSecrets(kind: CryptStoreKind) async throws {
        try await kind.withFixture { fixture in
            let store = try fixture.makeStore()
            let keys = (0..<4).map { CryptKey<String>(key: "stress.key\($0)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for step in 0..<40 {
                            let key = keys[(task &* 7 &+ step) % keys.count]
                            switch (task &+ step &* 3) % 10 {
                            case 0..<3:
                                try store.set(Self.secret(task + step), for: key)
                            case 3..<7:
                                if let read = try store.get(key) { #expect(Self.isWhole(read), "torn secret \(read)") }
                            case 7:
                                try store.delete(key)
                            case 8:
                                _ = try store.contains(key)
                            default:
                                if step % 5 == 0 { try store.deleteAll() }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for (index, key) in keys.enumerated() {
                try store.set(Self.secret(index), for: key)
                #expect(try store.get(key) == Self.secret(index))
            }
        }
    }

    @Test(arguments: [CryptStoreKind.vaultWithKeyFile, .vaultWithSymmetricKey])
    func vaultsOpenedAtOnceAgreeOnOneHeader(kind: CryptStoreKind) async throws {
        try await kind.withFixture { fixture in
            let stores = try await withThrowingTaskGroup(of: (any CryptStoring).self) { group in
                for _ in 0..<8 { group.addTask { try fixture.makeStore() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (index, writer) in stores.enumerated() {
                let key = CryptKey<String>(key: "opened.\(index)")
                try writer.set(Self.secret(index), for: key)
                for reader in stores { #expect(try reader.get(key) == Self.secret(index)) }
            }
        }
    }
}
