public import ForgeStorage

/// The settings TaskFlow keeps in its ``KVStoring`` store.
public enum TaskKeys {
    /// Whether the user has finished onboarding.
    public static let onboarding = KVKey<Bool>("taskflow.onboarding")
    /// How many times the app has been started.
    public static let launchCount = KVKey<Int>("taskflow.launchCount")
}
