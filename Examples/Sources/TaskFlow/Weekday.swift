/// A day of the week, as a ``Reminder`` names the days it fires on.
///
/// Stored by name (`"monday"`), so a settings file stays readable and a reordering of the cases changes nothing
/// already stored.
public enum Weekday: String, Codable, Sendable, CaseIterable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// Monday to Friday.
    public static let workdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
}
