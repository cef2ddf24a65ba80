import ForgeFileStore
import Foundation
import Testing

struct UserProfile: Codable, Equatable {
    let name: String
    let email: String
}

/// The JSON conveniences, run against each store the package ships.
@Suite("FileStoring JSON")
struct FileStoringJSONTests {
    @Test(arguments: FileStoreKind.allCases)
    func saveAndLoadJSON(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            let profile = UserProfile(name: "Stefan", email: "s@example.com")
            try await store.saveJSON(profile, to: "profile.json")
            let loaded: UserProfile = try await store.loadJSON("profile.json")
            #expect(loaded == profile)
            #expect(try await store.loadJSON("profile.json", as: UserProfile.self) == profile)
            // The shared encoder sorts keys, so the bytes are the same on every store.
            #expect(try await store.load("profile.json") == Data(#"{"email":"s@example.com","name":"Stefan"}"#.utf8))
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func loadJSONIfExistsReturnsNilForAMissingFile(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            let result: UserProfile? = try await store.loadJSONIfExists("missing.json")
            #expect(result == nil)
            try await store.saveJSON(UserProfile(name: "a", email: "b"), to: "present.json")
            #expect(try await store.loadJSONIfExists("present.json") == UserProfile(name: "a", email: "b"))
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func corruptJSONIsAnErrorNotNil(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            try await store.save(Data("{\"name\": \"trunc".utf8), to: "profile.json")
            await #expect {
                let _: UserProfile = try await store.loadJSON("profile.json")
            } throws: { error in
                guard case FileStoreError.decodingFailed(let path, _) = error else { return false }
                return path == "profile.json"
            }
            await #expect {
                let _: UserProfile? = try await store.loadJSONIfExists("profile.json")
            } throws: { error in
                guard case FileStoreError.decodingFailed = error else { return false }
                return true
            }
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func aValueThatCannotBeEncodedWritesNothing(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            try await store.saveJSON([1.5], to: "numbers.json")
            await #expect {
                try await store.saveJSON([Double.nan], to: "numbers.json")
            } throws: { error in
                guard case FileStoreError.encodingFailed(let path, _) = error else { return false }
                return path == "numbers.json"
            }
            #expect(try await store.loadJSON("numbers.json") == [1.5])
        }
    }

    @Test(arguments: FileStoreKind.allCases)
    func saveJSONWithoutOverwriteKeepsTheExistingFile(backend: FileStoreKind) async throws {
        try await backend.withStore { store in
            try await store.saveJSON(1, to: "n.json")
            await #expect(throws: FileStoreError.alreadyExists(path: "n.json")) {
                try await store.saveJSON(2, to: "n.json", overwrite: false)
            }
            #expect(try await store.loadJSON("n.json") == 1)
        }
    }
}
