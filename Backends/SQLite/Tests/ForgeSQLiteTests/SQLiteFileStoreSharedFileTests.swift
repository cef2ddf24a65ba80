import ForgeSQLite
import Foundation
import Testing

/// File stores share one database file with each other and with key-value stores, each apart.
struct SQLiteFileStoreSharedFileTests {
    @Test func aKeyValueStoreAndAFileStoreOnOneFileNeverSeeEachOthersData() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let settings = SQLiteKVStore(database: database, namespace: "app")
            let files = SQLiteFileStore(database: database, namespace: "app")

            try settings.set(KVKey<String>("notes.txt"), value: "a setting")
            try await files.save(Data("a file".utf8), to: "notes.txt")
            #expect(try settings.keys() == ["notes.txt"])
            #expect(try await files.list(in: "") == ["notes.txt"])

            try await files.deleteAll()
            #expect(settings.get(KVKey<String>("notes.txt")) == "a setting")
            try await files.save(Data("again".utf8), to: "notes.txt")
            try settings.removeAll()
            #expect(try await files.load("notes.txt") == Data("again".utf8))
            #expect(try await files.totalSize() == 5)
        }
    }

    @Test func namespacesNeverSeeEachOthersFiles() async throws {
        try await withTemporaryFolder { folder in
            let database = SQLiteDatabase(fileURL: databaseFile(in: folder))
            let drafts = SQLiteFileStore(database: database, namespace: "drafts")
            let sent = SQLiteFileStore(database: database, namespace: "sent")

            try await drafts.save(Data("1".utf8), to: "docs/a.txt")
            try await sent.save(Data("22".utf8), to: "docs")
            #expect(try await drafts.list(in: "docs") == ["docs/a.txt"])
            #expect(try await sent.list(in: "") == ["docs"])
            #expect(try await drafts.totalSize() == 1)
            try await sent.deleteAll()
            #expect(try await drafts.load("docs/a.txt") == Data("1".utf8))
        }
    }

    @Test func aSecondDatabaseOnTheFileSeesSavesAndDeletes() async throws {
        try await withTemporaryFolder { folder in
            let file = databaseFile(in: folder)
            let first = SQLiteFileStore(fileURL: file, namespace: "store")
            let second = SQLiteFileStore(fileURL: file, namespace: "store")

            #expect(!second.exists("a/b.txt"))
            try await first.save(Data("hello".utf8), to: "a/b.txt")
            #expect(try await second.load("a/b.txt") == Data("hello".utf8))
            #expect(try await second.list(in: "") == ["a/"])
            try await second.delete("a/b.txt")
            #expect(!first.exists("a/b.txt"))
            #expect(try await first.list(in: "").isEmpty)
        }
    }
}
