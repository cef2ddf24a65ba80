public import ForgeStorage

/// TaskFlow's settings, written against ``KVStoring`` only, so tests inject an `InMemoryKVStore`.
///
/// ```swift
/// let settings = TaskFlowSettingsService(store: DiskKVStore(namespace: "settings"))
/// if !settings.hasCompletedOnboarding { try settings.completeOnboarding() }
/// ```
public final class TaskFlowSettingsService: Sendable {
    private let store: any KVStoring

    /// Creates the service over `store`.
    ///
    /// - Parameter store: Where the settings live: a `DiskKVStore` in the app, an `InMemoryKVStore` in tests.
    public init(store: any KVStoring) {
        self.store = store
    }

    /// Whether the user has finished onboarding; false until ``completeOnboarding()``.
    public var hasCompletedOnboarding: Bool {
        store.get(TaskKeys.onboarding)
    }

    /// How many times ``recordLaunch()`` was called since the last ``reset()``; 0 when no count is stored, and
    /// when the stored count cannot be read (a store made by `reportingDecodingFailures(to:)` reports one that does
    /// not decode to its handler).
    public var launchCount: Int {
        store.get(TaskKeys.launchCount) ?? 0
    }

    /// Marks onboarding as finished.
    ///
    /// - Throws: `KVStoreError` when the store cannot write.
    public func completeOnboarding() throws {
        try store.set(TaskKeys.onboarding, value: true)
    }

    /// Counts one more launch of the app and returns the new count.
    ///
    /// The count is read with `value(for:)`, not ``launchCount``: a stored count that cannot be read is not
    /// replaced by 1, which would lose it for good.
    ///
    /// - Throws: `KVStoreError` when the stored count does not decode or cannot be read, or when the store
    ///   cannot write; the count is then unchanged.
    @discardableResult
    public func recordLaunch() throws -> Int {
        let count = (try store.value(for: TaskKeys.launchCount) ?? 0) + 1
        try store.set(TaskKeys.launchCount, value: count)
        return count
    }

    /// The daily reminder: the one stored (by version 1 of the app too, through the key's migration), or
    /// ``Reminder/standard`` when none is stored.
    ///
    /// - Throws: `KVStoreError.decodingFailed` when a stored reminder decodes neither as a ``Reminder`` nor as a
    ///   ``ReminderV1``, or `KVStoreError.readFailed` when the store cannot read it: the settings screen says
    ///   so instead of showing the standard reminder as if it were the user's.
    public func reminder() throws -> Reminder {
        try store.value(for: TaskKeys.reminder) ?? .standard
    }

    /// Stores `reminder` as the daily reminder, as a ``Reminder``, in place of whatever version stored before.
    ///
    /// - Throws: `KVStoreError` when the store cannot write; the stored reminder is then unchanged.
    public func setReminder(_ reminder: Reminder) throws {
        try store.set(TaskKeys.reminder, value: reminder)
    }

    /// Moves the daily reminder to `hour`:`minute`, keeping its days, and returns it.
    ///
    /// A stored reminder that cannot be read is not replaced: the standard reminder's days written over it
    /// would lose the user's choice silently, so the error is thrown and the stored value kept.
    ///
    /// - Throws: The errors of ``reminder()``, or `KVStoreError` when the store cannot write.
    @discardableResult
    public func moveReminder(toHour hour: Int, minute: Int) throws -> Reminder {
        var reminder = try reminder()
        reminder.hour = hour
        reminder.minute = minute
        try store.set(TaskKeys.reminder, value: reminder)
        return reminder
    }

    /// Removes every setting.
    ///
    /// - Throws: `KVStoreError` when the store cannot remove them.
    public func reset() throws {
        try store.removeAll()
    }
}
