/// When TaskFlow reminds the user of the day's tasks: a time, and the days it fires on.
///
/// Version 2 of TaskFlow added ``days``; version 1 stored a ``ReminderV1`` (a time, every day) under the same
/// key, which ``TaskKeys/reminder`` reads through its migration.
public struct Reminder: Codable, Sendable, Equatable {
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The days the reminder fires on, Monday first.
    public var days: [Weekday]

    /// Creates a reminder at `hour`:`minute` on `days`.
    public init(hour: Int, minute: Int, days: [Weekday]) {
        self.hour = hour
        self.minute = minute
        self.days = days
    }
}

extension Reminder {
    /// The reminder of a user who never chose one: 9:00, Monday to Friday.
    public static let standard = Reminder(hour: 9, minute: 0, days: Weekday.workdays)

    /// Version 1's reminder as version 2 reads it: the same time, every day, as version 1 fired it.
    ///
    /// - Parameter reminder: What version 1 stored.
    public init(everyDayAt reminder: ReminderV1) {
        self.init(hour: reminder.hour, minute: reminder.minute, days: Weekday.allCases)
    }
}
