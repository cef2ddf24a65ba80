internal import ForgeCore
public import ForgeCrypt
import Testing

/// The behaviour every secret store that changes its master key in place shares (`MasterKeyRotating`,
/// `AsyncMasterKeyRotating`), written once and run against each: the vault, `SQLiteCrypt`,
/// `PostgresCrypt`, the in-memory twin made with a master key, and each seen through the seam.
///
/// ```swift
/// @Test func rotatesLikeEveryStore() async {
///     await RotationConformance.run {
///         let key = MasterKey.symmetric(SymmetricKey(size: .bits256))
///         return RotationConformance.Subject(try InMemoryCrypt(masterKey: key), masterKey: key)
///     }
/// }
/// ```
///
/// What each store does when a rotation is interrupted, and what other instances opened with the old key meet, is
/// the store's own (its tests and the "Changing the master key" article); these checks pin what a service that
/// rotates relies on.
public enum RotationConformance: ConformanceSuite {
    /// A fresh, empty store to rotate, with the master key it was opened with.
    public struct Subject: Sendable {
        /// The store's secrets, in the asynchronous form.
        let store: any AsyncCryptStoring
        /// Rotates the store to a key, telling each step.
        let rotate: @Sendable (MasterKey, @escaping @Sendable (MasterKeyRotationStep) -> Void) async throws -> Void
        /// The key the store was opened with.
        let masterKey: MasterKey

        /// A synchronous store opened with `masterKey`.
        public init(_ store: some CryptStoring & MasterKeyRotating, masterKey: MasterKey) {
            self.init(synchronous: store, masterKey: masterKey)
        }

        /// An asynchronous store opened with `masterKey`.
        public init(_ store: some AsyncCryptStoring & AsyncMasterKeyRotating, masterKey: MasterKey) {
            self.init(asynchronous: store, masterKey: masterKey)
        }

        /// A store of both forms (the in-memory twin, alone or seen through the seam) opened with `masterKey`, checked
        /// through its synchronous form; `init(asynchronous:masterKey:)` checks its asynchronous one.
        public init(
            _ store: some CryptStoring & MasterKeyRotating & AsyncCryptStoring & AsyncMasterKeyRotating,
            masterKey: MasterKey
        ) {
            self.init(synchronous: store, masterKey: masterKey)
        }

        /// A store opened with `masterKey`, checked through its asynchronous form, whatever other forms it has.
        public init(asynchronous store: some AsyncCryptStoring & AsyncMasterKeyRotating, masterKey: MasterKey) {
            self.store = store
            self.rotate = { key, progress in try await store.rotateMasterKey(to: key) { progress($0) } }
            self.masterKey = masterKey
        }

        /// A store opened with `masterKey`, checked through its synchronous form, whatever other forms it has.
        public init(synchronous store: some CryptStoring & MasterKeyRotating, masterKey: MasterKey) {
            self.store = SynchronousCryptStore(store)
            self.rotate = { key, progress in try store.rotateMasterKey(to: key, progress: progress) }
            self.masterKey = masterKey
        }
    }

    /// Every check of the suite.
    public static var checks: [Check] {
        [
            Check("a rotation keeps every secret and tells its steps") { subject in
                try await fill(subject.store)
                let steps = try await rotate(subject, to: newKey())
                try await expectFilled(subject.store)
                #expect(steps.contains(.began(itemCount: secrets.count)), "\(steps)")
                #expect(steps.contains(.resealed(secrets.count, of: secrets.count)), "\(steps)")
                #expect(steps.contains(.switched), "\(steps)")
                #expect(steps.last == .finished, "\(steps)")
            },
            Check("after a rotation the store writes, reads and removes as before") { subject in
                try await fill(subject.store)
                try await rotate(subject, to: newKey())
                let later = CryptKey<String>(key: "rotation.later")
                try await subject.store.set("delta", for: later)
                try await subject.store.delete(secrets[0].key)
                #expect(try await subject.store.get(later) == "delta")
                #expect(try await subject.store.get(secrets[0].key) == nil)
                #expect(try await subject.store.keys() == ["rotation.b", "rotation.c", "rotation.later"])
            },
            Check("rotating to the key the store has changes nothing and tells only that it finished") { subject in
                try await fill(subject.store)
                let steps = try await rotate(subject, to: subject.masterKey)
                #expect(steps == [.finished])
                try await expectFilled(subject.store)
            },
            Check("a key that cannot be used is refused with invalidMasterKey, and the store goes on") { subject in
                try await fill(subject.store)
                let error = await #expect(throws: CryptStoreError.self) {
                    try await rotate(subject, to: .passphrase(""))
                }
                guard case .invalidMasterKey = error else {
                    Issue.record("expected invalidMasterKey, got \(String(describing: error))")
                    return
                }
                try await expectFilled(subject.store)
                try await rotate(subject, to: newKey())
                try await expectFilled(subject.store)
            },
            Check("two rotations in a row keep every secret") { subject in
                try await fill(subject.store)
                try await rotate(subject, to: newKey())
                try await rotate(subject, to: newKey())
                try await expectFilled(subject.store)
            },
        ]
    }
}

extension RotationConformance {
    /// The secrets each check stores before it rotates.
    static let secrets: [(key: CryptKey<String>, value: String)] = [
        (CryptKey(key: "rotation.a"), "alpha"),
        (CryptKey(key: "rotation.b"), "beta"),
        (CryptKey(key: "rotation.c"), "gamma"),
    ]

    /// A new random master key.
    static func newKey() -> MasterKey { .symmetric(SymmetricKey(size: .bits256)) }

    /// Stores ``secrets`` in `store`.
    static func fill(_ store: any AsyncCryptStoring) async throws {
        for (key, value) in secrets { try await store.set(value, for: key) }
    }

    /// Expects `store` to hold ``secrets``, and nothing else.
    static func expectFilled(_ store: any AsyncCryptStoring) async throws {
        for (key, value) in secrets { #expect(try await store.get(key) == value, "\(key.key)") }
        #expect(try await store.keys() == secrets.map(\.key.key))
    }

    /// Rotates `subject` to `key`, and returns the steps it told.
    @discardableResult
    static func rotate(_ subject: Subject, to key: MasterKey) async throws -> [MasterKeyRotationStep] {
        let steps = LockedState<[MasterKeyRotationStep]>([])
        try await subject.rotate(key) { step in steps.withLock { $0.append(step) } }
        return steps.withLock { $0 }
    }
}
