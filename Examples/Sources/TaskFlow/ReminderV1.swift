/// The reminder version 1 of TaskFlow stored under `"taskflow.reminder"`: a time, every day.
///
/// It stays after version 2 replaced it with ``Reminder``, as the type ``TaskKeys/reminder``'s migration decodes:
/// a user who updates keeps the reminder version 1 stored (read as ``Reminder/init(everyDayAt:)``), and an older
/// copy of the app sharing the store (a widget not yet updated) still reads it, since a read never writes back.
/// For the same reason a user who never changes the reminder keeps version 1's value stored for good: the type
/// stays as long as the app may meet such a value.
public struct ReminderV1: Codable, Sendable, Equatable {
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int

    /// Creates version 1's reminder at `hour`:`minute`.
    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }
}
