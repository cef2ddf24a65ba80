import ForgeSQLite
import Foundation
import Testing

/// A stream of a `SQLiteKVStore` sees the values a transaction writes once it commits, as it sees a `set`, and never a
/// value of a transaction that failed.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteTransactionStreamTests {
    @Test func aStreamEmitsTheValueATransactionWrote() async throws {
        try await withStoresOfOneDatabase { stores in
            let (settings, files) = (stores.settings, stores.files)
            let key = KVKey<Int>("count")
            var values = settings.stream(key).makeAsyncIterator()
            #expect(await values.next() == .some(nil), "the stream starts with the value before the transaction")

            try await StorageTransaction.run { transaction in
                try transaction.set(key, value: 1, in: settings)
                try transaction.save(Data("report".utf8), to: "report.txt", in: files)
                try transaction.set(key, value: 2, in: settings)
            }
            #expect(await values.next() == 2, "the stream reads the key after the commit: the transaction's last value")

            await #expect(throws: FileStoreError.notFound(path: "missing.txt")) {
                try await StorageTransaction.run { transaction in
                    try transaction.set(key, value: 3, in: settings)
                    try transaction.delete("missing.txt", in: files)
                }
            }
            try await StorageTransaction.run { transaction in
                try transaction.set(key, value: 4, in: settings)
            }
            #expect(await values.next() == 4, "the value of the transaction that failed is never emitted")
        }
    }
}
