internal import NIOConcurrencyHelpers
internal import PostgresNIO

/// One object per `PostgresClient` (its transaction runner, its background work), found by the client's identity.
///
/// The registry holds each object weakly and each object holds its client, so an entry's key names its client for as
/// long as the object lives; the object goes with the last store or service that holds it.
struct ClientRegistry<Value: AnyObject & Sendable>: Sendable {
    /// An entry the registry does not keep alive.
    private struct WeakEntry: Sendable {
        weak var value: Value?
    }

    /// The objects, by their client's identity.
    private let entries = NIOLockedValueBox<[ObjectIdentifier: WeakEntry]>([:])

    /// The object of `client`: the one a store or a service on it holds already, or a new one from `make`.
    func value(of client: PostgresClient, orMake make: () -> Value) -> Value {
        entries.withLockedValue { entries in
            let id = ObjectIdentifier(client)
            if let value = entries[id]?.value { return value }
            // Objects that went with their holders free their entries here, so the registry holds only live clients.
            entries = entries.filter { $0.value.value != nil }
            let value = make()
            entries[id] = WeakEntry(value: value)
            return value
        }
    }
}
