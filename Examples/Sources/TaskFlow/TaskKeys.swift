public import ForgeStorage

/// The settings TaskFlow keeps in its ``KVStoring`` store.
public enum TaskKeys {
    /// Whether the user has finished onboarding; false until it is stored.
    public static let onboarding = KVKeyWithDefault("taskflow.onboarding", default: false)
    /// How many times the app has been started.
    public static let launchCount = KVKey<Int>("taskflow.launchCount")
    /// When to remind the user of the day's tasks.
    ///
    /// Version 1 stored a ``ReminderV1`` (a time, every day) under the same name; reads migrate it to a reminder
    /// on every day at that time, and leave it stored as it is until the first `set` stores a ``Reminder``.
    public static let reminder = KVKey<Reminder>(
        "taskflow.reminder",
        migrations: .from(ReminderV1.self) { Reminder(everyDayAt: $0) }
    )
}
