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
        store.get(TaskKeys.onboarding) ?? false
    }

    /// How many times ``recordLaunch()`` was called since the last ``reset()``.
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
    /// - Throws: `KVStoreError` when the store cannot write; the count is then unchanged.
    @discardableResult
    public func recordLaunch() throws -> Int {
        let count = launchCount + 1
        try store.set(TaskKeys.launchCount, value: count)
        return count
    }

    /// Removes every setting.
    ///
    /// - Throws: `KVStoreError` when the store cannot remove them.
    public func reset() throws {
        try store.removeAll()
    }
}
