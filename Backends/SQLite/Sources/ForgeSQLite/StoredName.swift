internal import Foundation
internal import GRDB
internal import GRDBSQLite

/// A name as a row stores it (the UTF-8 of its canonical spelling, as a blob), read straight into a `String`: one
/// copy of the bytes, where a `Data` and then a `String` made of it are two.
struct StoredName: DatabaseValueConvertible, StatementColumnConvertible {
    /// The name.
    let text: String

    /// The name as a row stores it.
    var databaseValue: DatabaseValue { SQLiteKVTable.stored(text).databaseValue }

    /// The name a row's blob stores; nil for a value of another kind.
    static func fromDatabaseValue(_ value: DatabaseValue) -> StoredName? {
        Data.fromDatabaseValue(value).map { StoredName(text: SQLiteKVTable.text(fromStored: $0)) }
    }

    init(text: String) {
        self.text = text
    }

    init(sqliteStatement: SQLiteStatement, index: CInt) {
        // The blob first, then its size, as SQLite asks.
        let bytes = sqlite3_column_blob(sqliteStatement, index)
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        guard let bytes, count > 0 else {
            text = ""
            return
        }
        text = String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
