// The sample shows no imports: these are scaffolding.
import ForgeFileStore
import Testing

// forgestorage-testing.md, "JSONTests.swift"
struct UserProfile: Codable, Equatable {
    let name: String
    let email: String
}

@Test func saveAndLoadJSON() async throws {
    let store = InMemoryFileStore()
    let profile = UserProfile(name: "Stefan", email: "s@example.com")

    try await store.saveJSON(profile, to: "profile.json")
    let loaded: UserProfile = try await store.loadJSON("profile.json")

    #expect(loaded == profile)
}

@Test func loadJSONIfExistsReturnsNil() async throws {
    let store = InMemoryFileStore()
    let result: UserProfile? = try await store.loadJSONIfExists("missing.json")
    #expect(result == nil)
}
