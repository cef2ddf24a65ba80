/// A store of any kind as the race checks (``ConformanceRaces``) see it: a text under a name.
///
/// Each suite makes one from its subject: a key-value store sets and reads a `KVKey<String>`, a secret store a
/// `CryptKey<String>`, a file store saves and loads the text's bytes at the name as a path.
struct RacedStore: Sendable {
    /// Stores `text` under `name`, replacing what was there.
    let write: @Sendable (_ name: String, _ text: String) async throws -> Void
    /// The text stored under `name`, or nil when there is none.
    let read: @Sendable (_ name: String) async throws -> String?
    /// Every name the store holds.
    let names: @Sendable () async throws -> Set<String>
    /// Where the store parks a write between its two steps while a check makes a rival call, or nil (see `RaceGate`).
    let raceGate: RaceGate?
}
