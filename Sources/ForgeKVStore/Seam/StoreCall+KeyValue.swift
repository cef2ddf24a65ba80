package import ForgeCore
internal import Foundation

extension StoreCall where Result == KVStoredValue? {
    /// A read of the value under `name`, its bytes counted; a fault that damages it makes it a value no type decodes,
    /// as a damaged file is.
    package static func read(_ name: String) -> Self {
        StoreCall(.read, name, reading: KVStoredValue.byteCount, whenDamaged: { $0.map { _ in .damaged } })
    }
}

extension StoreCall where Result == [String: KVStoredValue] {
    /// A read of the values under `names` (a key's own name first, then its migrations' older names), as one read
    /// of the first; a fault that damages it damages every value it found.
    package static func read(_ names: [String]) -> Self {
        StoreCall(.read, names.first, reading: KVStoredValue.byteCount, whenDamaged: { $0.mapValues { _ in .damaged } })
    }
}

extension KVStoredValue {
    /// What a read that a fault damaged finds: a value no type decodes.
    fileprivate static var damaged: KVStoredValue { KVStoredValue(json: Data("the stored data is damaged".utf8)) }
}
