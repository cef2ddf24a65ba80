#if DEBUG
import ForgeCore
import ForgeCrypt
import Foundation

/// The vault's operations the sweep fails (`EncryptedFileCrypt`, the secret store of every platform): set, delete,
/// `deleteAll`, and a change of the master key, whose three phases (resealing every item, the switch, retiring the
/// old items) are one run.
enum VaultOperations {
    static let namespace = "secrets"
    static let target = CryptKey<String>("api-token")
    static let others = [CryptKey<String>("refresh-token"), CryptKey<String>("database-password")]
    static let next = CryptKey<String>("next")
    static let oldKey = MasterKey.symmetric(SymmetricKey(data: [UInt8](repeating: 0x11, count: 32)))
    static let newKey = MasterKey.symmetric(SymmetricKey(data: [UInt8](repeating: 0x22, count: 32)))

    static var all: [SweptOperation] {
        [
            operation("vault.set", subject: target.key) { store in try store.set("token-2", for: target) },
            operation("vault.delete", subject: target.key) { store in try store.delete(target) },
            operation("vault.deleteAll", subject: nil, removesPart: true) { store in try store.deleteAll() },
            rotation,
        ]
    }

    /// An operation on a vault holding the target and two other secrets; `removesPart` for one that removes items one
    /// by one, which may stop part-way.
    private static func operation(
        _ name: String,
        subject: String?,
        removesPart: Bool = false,
        _ run: @escaping @Sendable (EncryptedFileCrypt) throws -> Void
    ) -> SweptOperation {
        SweptOperation(
            name: name,
            subject: subject,
            removesPart: removesPart,
            namesAreStable: false,
            seed: seed,
            open: { folder in
                let store = try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: oldKey)
                await StoreFolder.leftoverSweepsFinished()
                _ = try store.keys()
                return SweptOperation.OpenedStore(
                    run: { try run(store) },
                    contents: { try contents(of: store, key: "old") },
                    next: {
                        try store.set("after", for: next)
                        guard try store.get(next) == "after" else {
                            throw SweepViolation("the next set read back wrong")
                        }
                    }
                )
            }
        )
    }

    /// The change of the master key from ``oldKey`` to ``newKey``, as a process that starts it (or starts it again
    /// after a failure or a crash) runs it.
    private static var rotation: SweptOperation {
        SweptOperation(
            name: "vault.rotate",
            subject: nil,
            namesAreStable: false,
            resumes: true,
            seed: seed,
            open: { folder in
                // As an app starts: it opens the vault (which removes what a dead process left) before it rotates.
                _ = try contents(in: folder)
                await StoreFolder.leftoverSweepsFinished()
                let rotate: @Sendable () throws -> EncryptedFileCrypt = {
                    try EncryptedFileCrypt.rotateMasterKey(
                        directory: .custom(folder),
                        namespace: namespace,
                        from: oldKey,
                        to: newKey
                    ) { step in phases.note(step) }
                }
                return SweptOperation.OpenedStore(
                    run: { _ = try rotate() },
                    contents: { try contents(in: folder) },
                    next: {
                        // A failed rotation is run again, and ends; the vault then opens with the new key only.
                        let store = try rotate()
                        try store.set("after", for: next)
                        guard try contents(in: folder)["master key"] == "new" else {
                            throw SweepViolation("the rotation run again did not end with the new key")
                        }
                    }
                )
            }
        )
    }

    /// The calls each phase of the rotation made in the sweep's run without faults: resealing every item, the switch,
    /// retiring the old items.
    static let phases = RotationPhases()

    private static let seed: @Sendable (URL) async throws -> Void = { folder in
        let store = try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: oldKey)
        try store.set("token-1", for: target)
        for key in others { try store.set("secret of \(key.key)", for: key) }
    }

    /// What the vault in `folder` holds, opened with the key that opens it now: the old one, or the new one once a
    /// rotation switched.
    private static func contents(in folder: URL) throws -> [String: String] {
        do {
            let store = try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: oldKey)
            return try contents(of: store, key: "old")
        } catch CryptStoreError.masterKeyRotated, CryptStoreError.wrongMasterKey {
            let store = try EncryptedFileCrypt(directory: .custom(folder), namespace: namespace, masterKey: newKey)
            return try contents(of: store, key: "new")
        }
    }

    /// Every secret `store` lists, and which master key opened it.
    private static func contents(of store: EncryptedFileCrypt, key: String) throws -> [String: String] {
        var contents = ["master key": key]
        for name in try store.keys() {
            contents[name] = try store.get(CryptKey<String>(name)) ?? "missing"
        }
        return contents
    }
}

/// The number of calls counted when each phase of a rotation began, noted from its steps while a plan counts.
final class RotationPhases: Sendable {
    private let starts = LockedState<[String: Int]>([:])

    /// Notes where the phase `step` belongs to begins, when it is the first step of it seen.
    func note(_ step: MasterKeyRotationStep) {
        guard let counted = SystemFaults.callsCounted else { return }
        let phase =
            switch step {
            case .began, .resealed: "reseal"
            case .switched: "switch"
            case .retired, .finished: "retire"
            }
        starts.withLock { starts in
            if starts[phase] == nil { starts[phase] = counted }
        }
    }

    /// The phases, in order, with the calls made before each began; then forgets them, for the next run.
    func take() -> [(phase: String, start: Int)] {
        starts.withLock { starts in
            defer { starts = [:] }
            return ["reseal", "switch", "retire"].compactMap { phase in starts[phase].map { (phase, $0) } }
        }
    }
}
#endif
