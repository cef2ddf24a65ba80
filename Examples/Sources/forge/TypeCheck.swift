import ForgeStorage

/// How a stored value reads as the type an app reads it as (a ``TypedKey``'s).
enum TypeCheck: Equatable, Sendable {
    /// It decodes as the type.
    case decodes
    /// It is an older type that the key's migrations read: the app reads it, converted.
    case migrates
    /// It decodes neither as the type nor through a migration: the app's `get` reads it as nil, its
    /// `value(for:)` throws. `reason` is the decoder's.
    case doesNotDecode(reason: String)
    /// The store could not read it.
    case unreadable(reason: String)

    /// The check a failed read's `error` stands for.
    init(_ error: any Error) {
        if case KVStoreError.decodingFailed(_, let reason) = error {
            self = .doesNotDecode(reason: reason)
        } else {
            self = .unreadable(reason: "\(error)")
        }
    }

    /// Whether the app cannot read the value: `forge inspect` counts it as a problem.
    var isProblem: Bool {
        switch self {
        case .decodes, .migrates: false
        case .doesNotDecode, .unreadable: true
        }
    }

    /// What to show beside the value for a key read as `typeName`, or nil when it decodes as it is.
    func note(typeName: String) -> String? {
        switch self {
        case .decodes: nil
        case .migrates: "stored by an older version: reads migrate it to \(typeName)"
        case .doesNotDecode(let reason): "does not decode as \(typeName): \(reason)"
        case .unreadable(let reason): "cannot be read as \(typeName): \(reason)"
        }
    }
}
