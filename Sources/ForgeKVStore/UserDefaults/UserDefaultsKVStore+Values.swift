internal import Foundation

extension UserDefaultsKVStore {
    /// The types `UserDefaults` stores natively (see ``UserDefaultsKVStore``).
    private static let nativeTypes: Set<ObjectIdentifier> = [
        ObjectIdentifier(Bool.self), ObjectIdentifier(Int.self), ObjectIdentifier(Double.self),
        ObjectIdentifier(Float.self), ObjectIdentifier(String.self), ObjectIdentifier(Date.self),
        ObjectIdentifier(Data.self),
    ]

    /// The property-list object that stores `value`: the value itself when the typed API wrote one of the native
    /// types, else its JSON as `Data`.
    ///
    /// - Throws: ``KVStoreError/encodingFailed(key:underlying:)`` naming `name` for a number JSON cannot represent.
    static func propertyListObject(for value: KVStoredValue, name: String) throws(KVStoreError) -> Any {
        switch value.form {
        case .typed(let typed):
            guard nativeTypes.contains(ObjectIdentifier(typed.type)), let written = typed.value as? any Encodable
            else { return typed.json }
            return try DefaultsValueCoding.object(for: written, key: name)
        case .propertyList(let object):
            return object.value
        case .json, .wrapped:
            return value.json
        }
    }
}
