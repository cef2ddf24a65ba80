import ForgeStorage
import ForgeStorageTesting
import Foundation
import TaskFlow
import Testing

/// The failure-path test README.md shows: README.md quotes it verbatim, and scripts/check-samples fails when the
/// two differ.
@Test func aFullDiskDuringLoginLeavesNothingHalfStored() async throws {
    let log = OperationLog()
    let fileFaults = StoreFaults()
    let keychain = InMemoryCrypt(label: "keychain", log: log)
    let files = InMemoryFileStore(label: "files", faults: fileFaults, log: log)
    let prefs = InMemoryKVStore(label: "prefs", log: log)
    let service = TaskFlowService(preferences: prefs, files: files, keychain: keychain)

    fileFaults.failNext(.write, at: "avatars/current.jpg", with: .outOfSpace)
    await #expect(throws: FileStoreError.writeFailed(path: "avatars/current.jpg", reason: .outOfSpace)) {
        try await service.login(token: "abc", avatar: Data("img".utf8))
    }
    let calls = [
        "keychain write auth.access", "files write avatars/current.jpg (failed)", "keychain delete auth.access",
    ]
    #expect(log.entries.map(\.description) == calls)
    #expect(try !keychain.contains(AuthKeys.accessToken))  // the service rolled the token back (a logged read)
}

/// The "Testing failure paths" walkthrough: a full disk during login, a locked device during launch.
struct TaskFlowFailurePathTests {
    let log = OperationLog()
    let prefsFaults = StoreFaults()
    let fileFaults = StoreFaults()
    let keychainFaults = StoreFaults()
    let prefs: InMemoryKVStore
    let files: InMemoryFileStore
    let keychain: InMemoryCrypt
    let avatar = Data("img".utf8)

    init() {
        prefs = InMemoryKVStore(label: "prefs", faults: prefsFaults, log: log)
        files = InMemoryFileStore(label: "files", faults: fileFaults, log: log)
        keychain = InMemoryCrypt(label: "keychain", faults: keychainFaults, log: log)
    }

    var service: TaskFlowService {
        TaskFlowService(preferences: prefs, files: files, keychain: keychain)
    }

    var naiveService: NaiveTaskFlowService {
        NaiveTaskFlowService(preferences: prefs, files: files, keychain: keychain)
    }

    /// Nothing of a login is stored.
    func expectNothingStored(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try !keychain.contains(AuthKeys.accessToken), sourceLocation: sourceLocation)
        #expect(!files.exists(TaskFlowService.avatarPath), sourceLocation: sourceLocation)
        #expect(!prefs.contains(TaskKeys.onboarding), sourceLocation: sourceLocation)
    }

    @Test func loginStoresTheTokenTheAvatarAndTheFlagInThatOrder() async throws {
        try await service.login(token: "abc", avatar: avatar)
        #expect(
            log.entries.map(\.description) == [
                "keychain write auth.access", "files write avatars/current.jpg", "prefs write taskflow.onboarding",
            ]
        )
    }

    @Test func aFullDiskWhileSavingTheAvatarLeavesNothingHalfStored() async throws {
        fileFaults.failNext(.write, at: TaskFlowService.avatarPath, with: .outOfSpace)

        await #expect(throws: FileStoreError.writeFailed(path: TaskFlowService.avatarPath, reason: .outOfSpace)) {
            try await service.login(token: "abc", avatar: avatar)
        }
        #expect(
            log.entries == [
                LoggedOperation(.write, "auth.access", in: "keychain"),
                LoggedOperation(.write, "avatars/current.jpg", in: "files", failed: true),
                LoggedOperation(.delete, "auth.access", in: "keychain"),
            ]
        )
        try expectNothingStored()

        // Once there is space again, the same login succeeds.
        try await service.login(token: "abc", avatar: avatar)
        #expect(try keychain.get(AuthKeys.accessToken) == "abc")
    }

    @Test func aFullDiskWhileSettingTheFlagRemovesTheAvatarAndTheToken() async throws {
        prefsFaults.failNext(.write, with: .outOfSpace)

        #expect(log.entries.isEmpty)
        await #expect {
            try await service.login(token: "abc", avatar: avatar)
        } throws: { error in
            guard case KVStoreError.writeFailed(let key, _) = error else { return false }
            return key == TaskKeys.onboarding.key
        }
        try expectNothingStored()
        #expect(try await files.totalSize() == 0)
    }

    @Test func withoutRollbackAFullDiskLeavesATokenWithoutAnAvatar() async throws {
        fileFaults.failNext(.write, with: .outOfSpace)
        await #expect(throws: FileStoreError.self) {
            try await naiveService.login(token: "abc", avatar: avatar)
        }
        // The naive login leaves the user half logged in: a token, but no avatar and no onboarding flag.
        #expect(try keychain.get(AuthKeys.accessToken) == "abc")
        #expect(!files.exists(TaskFlowService.avatarPath))
    }

    @Test func aLockedDeviceDuringLaunchDoesNotLogTheUserOut() async throws {
        try await service.login(token: "abc", avatar: avatar)
        log.removeAll()
        keychainFaults.failAlways(.all, with: .deviceLocked)

        #expect(try await service.launch() == .waitingForUnlock)
        #expect(log.writes.isEmpty)

        keychainFaults.removeAll()
        #expect(try await service.launch() == .loggedIn)
        #expect(try keychain.get(AuthKeys.accessToken) == "abc")
        #expect(files.exists(TaskFlowService.avatarPath))
        #expect(prefs.get(TaskKeys.onboarding) == true)
    }

    @Test func withoutCareALockedDeviceDuringLaunchLogsTheUserOut() async throws {
        try await naiveService.login(token: "abc", avatar: avatar)
        log.removeAll()
        keychainFaults.failNext(.read, with: .deviceLocked)

        #expect(try await naiveService.launch() == .loggedOut)
        #expect(log.writes.map(\.description) == ["keychain deleteAll", "files deleteAll", "prefs deleteAll"])
        try expectNothingStored()
    }

    @Test func launchWithoutATokenLogsOutAndLogoutDeletesAllThreeAndWritesNothing() async throws {
        #expect(try await service.launch() == .loggedOut)
        try await service.login(token: "abc", avatar: avatar)
        log.removeAll()

        try await service.logout()
        #expect(log.entries.map(\.description) == ["keychain deleteAll", "files deleteAll", "prefs deleteAll"])
        #expect(log.entries(.write).isEmpty)
        try expectNothingStored()
    }
}
