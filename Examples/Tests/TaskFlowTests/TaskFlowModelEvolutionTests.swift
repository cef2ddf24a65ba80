import ForgeStorage
import Foundation
import TaskFlow
import Testing

/// The test the "Evolving your model" article quotes (scripts/check-samples fails when the two differ): a reminder
/// version 1 stored reads as version 2's through the key's migration, the read writes nothing back, and the
/// first write stores version 2's type.
@Test func aReminderVersion1StoredReadsAsVersion2s() throws {
    let store = InMemoryKVStore()
    let version1 = KVKey<ReminderV1>("taskflow.reminder")  // the key as version 1 declared it
    try store.set(version1, value: ReminderV1(hour: 8, minute: 30))

    let settings = TaskFlowSettingsService(store: store)
    #expect(try settings.reminder() == Reminder(hour: 8, minute: 30, days: Weekday.allCases))
    #expect(try store.value(for: version1) == ReminderV1(hour: 8, minute: 30))  // the read wrote nothing back

    try settings.moveReminder(toHour: 7, minute: 0)
    let stored = try store.value(for: TaskKeys.reminder.withoutMigrations)  // version 2's type, no migration
    #expect(stored == Reminder(hour: 7, minute: 0, days: Weekday.allCases))
}

/// TaskFlow's reminder after version 2 added its days: what version 1 stored, read through
/// ``TaskKeys/reminder``'s migration on the in-memory and the disk store, and values that read as neither.
struct TaskFlowModelEvolutionTests {
    /// The reminder key as version 1 declared it, to store what version 1 stored.
    let version1 = KVKey<ReminderV1>(TaskKeys.reminder.key)

    /// Runs `body` with a `DiskKVStore` in a fresh temporary folder, removed afterwards.
    private func withDiskStore(_ body: (DiskKVStore) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskflow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(DiskKVStore(directory: .custom(folder), namespace: "settings"))
    }

    /// Version 1's reminder reads as an everyday reminder, stays stored as version 1's until a write, and the
    /// write stores a `Reminder`.
    private func expectVersion1sReminderMigrates(in store: any KVStoring) throws {
        try store.set(version1, value: ReminderV1(hour: 8, minute: 30))
        let migrated = Reminder(hour: 8, minute: 30, days: Weekday.allCases)

        #expect(try store.value(for: TaskKeys.reminder) == migrated)
        #expect(store.get(TaskKeys.reminder) == migrated)
        #expect(try TaskFlowSettingsService(store: store).reminder() == migrated)
        // Reads never write: version 1's value is still there, as version 1 stored it.
        #expect(try store.value(for: version1) == ReminderV1(hour: 8, minute: 30))
        #expect(throws: KVStoreError.self) { try store.value(for: TaskKeys.reminder.withoutMigrations) }

        let moved = try TaskFlowSettingsService(store: store).moveReminder(toHour: 7, minute: 15)
        #expect(moved == Reminder(hour: 7, minute: 15, days: Weekday.allCases))
        #expect(try store.value(for: TaskKeys.reminder.withoutMigrations) == moved)
        // An older copy of the app still reads the time: its decoder ignores the days it does not know.
        #expect(try store.value(for: version1) == ReminderV1(hour: 7, minute: 15))
        #expect(try store.keys() == [TaskKeys.reminder.key])
    }

    @Test func version1sReminderMigratesInMemory() throws {
        try expectVersion1sReminderMigrates(in: InMemoryKVStore())
    }

    @Test func version1sReminderMigratesOnDisk() throws {
        try withDiskStore { store in
            try expectVersion1sReminderMigrates(in: store)
            // A second handle on the folder, as the next launch opens it, reads what the first one wrote.
            let relaunched = DiskKVStore(
                directory: .custom(store.folderURL.deletingLastPathComponent()),
                namespace: "settings"
            )
            #expect(try relaunched.value(for: TaskKeys.reminder)?.hour == 7)
        }
    }

    @Test func withoutTheMigrationVersion1sReminderIsADecodingFailure() throws {
        let store = InMemoryKVStore()
        try store.set(version1, value: ReminderV1(hour: 8, minute: 30))

        let error = #expect(throws: KVStoreError.self) { try store.value(for: TaskKeys.reminder.withoutMigrations) }
        guard case .decodingFailed(let key, _) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(key == TaskKeys.reminder.key)
        #expect(store.get(TaskKeys.reminder.withoutMigrations) == nil)
    }

    @Test func aReminderThatReadsAsNeitherVersionIsNotOverwritten() throws {
        let store = InMemoryKVStore()
        let damaged = KVKey<String>(TaskKeys.reminder.key)
        try store.set(damaged, value: "8am")
        let settings = TaskFlowSettingsService(store: store)

        #expect(throws: KVStoreError.self) { try settings.reminder() }
        let error = #expect(throws: KVStoreError.self) { try settings.moveReminder(toHour: 7, minute: 0) }
        guard case .decodingFailed(let key, _) = error else {
            Issue.record("expected decodingFailed, got \(String(describing: error))")
            return
        }
        #expect(key == TaskKeys.reminder.key)
        #expect(store.get(damaged) == "8am", "the standard reminder's days were not written over it")

        // Setting a whole reminder is the user's choice, and replaces it.
        try settings.setReminder(.standard)
        #expect(try settings.reminder() == .standard)
    }

    @Test func aLaunchCountThatDoesNotDecodeIsNotResetToOne() throws {
        let store = InMemoryKVStore()
        let damaged = KVKey<String>(TaskKeys.launchCount.key)
        try store.set(damaged, value: "many")
        let settings = TaskFlowSettingsService(store: store)

        #expect(settings.launchCount == 0)
        #expect(throws: KVStoreError.self) { try settings.recordLaunch() }
        #expect(store.get(damaged) == "many")
    }

    @Test func noStoredReminderIsTheStandardOne() throws {
        let settings = TaskFlowSettingsService(store: InMemoryKVStore())
        #expect(try settings.reminder() == .standard)
        #expect(try settings.moveReminder(toHour: 18, minute: 5).days == Weekday.workdays)
    }

    @Test func getReportsAReminderThatDoesNotDecode() async throws {
        let memory = InMemoryKVStore()
        try memory.set(KVKey<String>(TaskKeys.reminder.key), value: "8am")

        await confirmation { reported in
            let store = memory.reportingDecodingFailures { failure in
                #expect(failure.key == TaskKeys.reminder.key)
                #expect(failure.expectedType == "Reminder")
                reported()
            }
            #expect(store.get(TaskKeys.reminder) == nil)
        }
    }
}
