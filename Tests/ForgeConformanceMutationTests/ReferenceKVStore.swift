import ForgeCore
import ForgeKVStore
import ForgeStorageTesting
import Foundation

/// A small, obviously correct `KVStoring` that follows only the documented rules, as a user would write it, with one
/// ``KVMutant`` switched on or none.
///
/// Each handle reads and writes a namespace of a shared ``KVBacking``: ``reopened()`` is a second handle on the same
/// namespace, and ``neighbour()`` a store on another namespace of the same backing.
final class ReferenceKVStore: Sendable {
    let backing: KVBacking
    let namespace: String
    let mutant: KVMutant?
    /// Where the race mutants park a call between its two steps while a concurrency check makes a rival call; every
    /// handle on the backing shares it.
    let raceGate: RaceGate
    /// What this handle read, by slot (``KVMutant/cachesReads`` only).
    private let cache = LockedState<[KVBacking.Slot: KVBacking.Entry]>([:])
    /// The names written through this handle (``KVMutant/containsRemembersRemovedKeys`` only).
    private let written = LockedState<Set<[UInt8]>>([])
    /// The value this handle last decoded in each slot, with the JSON and the type it was decoded from
    /// (``KVMutant/sharesTheDecodedInstance`` only).
    private let decoded = LockedState<[KVBacking.Slot: (json: Data, type: String, value: any Sendable)]>([:])

    init(
        backing: KVBacking = KVBacking(),
        namespace: String = "store",
        mutant: KVMutant? = nil,
        raceGate: RaceGate = RaceGate()
    ) {
        self.backing = backing
        self.namespace = namespace
        self.mutant = mutant
        self.raceGate = raceGate
    }

    /// A second handle on the same namespace of the same backing.
    func reopened() -> ReferenceKVStore {
        ReferenceKVStore(backing: backing, namespace: namespace, mutant: mutant, raceGate: raceGate)
    }

    /// A store on another namespace of the same backing.
    func neighbour() -> ReferenceKVStore {
        ReferenceKVStore(backing: backing, namespace: namespace + ".neighbour", mutant: mutant, raceGate: raceGate)
    }

    /// The subject the conformance suite runs against: this store, its second handle, its neighbour and its race gate.
    func subject() -> KVStoringConformance.Subject {
        var subject = KVStoringConformance.Subject(self, reopen: { self.reopened() }, neighbour: neighbour())
        subject.raceGate = raceGate
        return subject
    }

    /// The bytes `key` is stored under: its canonical form.
    private func storedName(_ key: String) -> [UInt8] {
        var name = mutant == .comparesKeysBytewise ? key : FileNameEncoding.canonicalForm(of: key)
        if mutant == .truncatesLongKeys { name = String(name.prefix(255)) }
        return Array(name.utf8)
    }

    private func slot<T>(_ key: String, _: T.Type) -> KVBacking.Slot {
        KVBacking.Slot(name: storedName(key), type: mutant == .keepsAValuePerType ? "\(T.self)" : "")
    }

    /// The value stored under `key`, or nil.
    private func load<T>(_ key: String, as type: T.Type) -> KVBacking.Entry? {
        let slot = slot(key, type)
        if mutant == .cachesReads, let cached = cache.withLock({ $0[slot] }) { return cached }
        var entry = backing.entry(slot, in: namespace).flatMap { $0.data == nil ? nil : $0 }
        if mutant == .keepsAValuePerType, entry == nil {
            entry = backing.table(namespace).first { $0.key.name == slot.name && $0.value.data != nil }?.value
        }
        if mutant == .readsNeighbours, entry == nil { entry = backing.entryInAnyNamespace(slot) }
        if mutant == .cachesReads, let entry { cache.withLock { $0[slot] = entry } }
        return entry
    }

    /// Stores `data` under `key`, or removes it for nil; `instance` is the value `set` was given, kept beside its
    /// JSON (``KVMutant/returnsTheWrittenInstance`` only).
    private func store<T>(_ data: Data?, _ key: String, as type: T.Type, instance: (any Sendable)? = nil) {
        let slot = slot(key, type)
        let entry = data.map { KVBacking.Entry(spelling: key, type: "\(T.self)", data: $0, written: instance) }
        switch mutant {
        case .losesConcurrentUpdates:
            var table = backing.table(namespace)
            table[slot] = entry
            raceGate.betweenSteps()
            backing.replace(namespace, with: table)
        case .listsRemovedKeys:
            backing.update(namespace) {
                $0[slot] = entry ?? KVBacking.Entry(spelling: key, type: "\(T.self)", data: nil)
            }
        default:
            backing.update(namespace) { $0[slot] = entry }
        }
        if mutant == .cachesReads { cache.withLock { $0[slot] = entry } }
        if mutant == .containsRemembersRemovedKeys, data != nil { written.withLock { _ = $0.insert(slot.name) } }
    }
}

extension ReferenceKVStore: KVStoring {
    func get<T: Codable & Sendable>(_ key: KVKey<T>) -> T? {
        (try? value(for: key)) ?? nil
    }

    func value<T: Codable & Sendable>(for key: KVKey<T>) throws -> T? {
        let value = try ReferenceReads(store: self).value(for: key)
        if mutant == .migrationWritesBackOnRead, let value, load(key.key, as: T.self) == nil {
            try set(key, value: value)
        }
        return value
    }

    func set<T: Codable & Sendable>(_ key: KVKey<T>, value: T) throws {
        if mutant == .keepsTheFirstValue, load(key.key, as: T.self) != nil { return }
        if mutant == .writesInTwoSteps {
            store(nil, key.key, as: T.self)
            raceGate.betweenSteps()
        }
        let data: Data
        do {
            data = try JSONCodec.encode(value)
        } catch {
            if mutant == .swallowsEncodingErrors { return }
            if mutant == .encodingFailureLosesTheStoredValue { store(nil, key.key, as: T.self) }
            throw KVStoreError.encodingFailed(key: key.key, underlying: "\(error)")
        }
        store(data, key.key, as: T.self, instance: mutant == .returnsTheWrittenInstance ? value : nil)
    }

    func remove<T: Codable & Sendable>(_ key: KVKey<T>) throws {
        // The older names first, the key last, as the protocol asks.
        let names = mutant == .removeLeavesOlderNames ? [key.key] : key.storedNames.reversed()
        for name in names {
            store(nil, name, as: T.self)
        }
    }

    func contains<T: Codable & Sendable>(_ key: KVKey<T>) -> Bool {
        if mutant == .containsRemembersRemovedKeys {
            let written = written.withLock { $0 }
            if key.storedNames.contains(where: { written.contains(storedName($0)) }) { return true }
        }
        return key.storedNames.contains { load($0, as: T.self) != nil }
    }

    func removeAll() throws {
        switch mutant {
        case .removeAllClearsNeighbours:
            backing.removeEverything()
        case .removeAllSkipsHiddenKeys:
            backing.update(namespace) { table in table = table.filter { $0.value.spelling.hasPrefix(".") } }
        case .removeAllRemovesOnlyPlainKeys:
            backing.update(namespace) { table in table = table.filter { !PlainName.isPlain($0.key.name) } }
        default:
            backing.replace(namespace, with: [:])
        }
        cache.withLock { $0.removeAll() }
        written.withLock { $0.removeAll() }
    }

    func keys() throws -> [String] {
        let entries = backing.table(namespace).values.filter { $0.data != nil || mutant == .listsRemovedKeys }
        let names = Set(
            entries.map { mutant == .listsKeysAsGiven ? $0.spelling : FileNameEncoding.canonicalForm(of: $0.spelling) }
        )
        return mutant == .listsKeysUnsorted ? Array(names) : names.sorted()
    }
}

/// The reference store's reads of one name, under the package's one migration policy.
private struct ReferenceReads: KVValueSource {
    let store: ReferenceKVStore

    func plainValue<T: Codable & Sendable>(of type: T.Type, named name: String) throws -> T? {
        try store.plainValue(of: T.self, named: name)
    }
}

extension ReferenceKVStore {
    /// The value stored under `name` as a `T`, without migrations, with the mutant's bug in it.
    fileprivate func plainValue<T: Codable & Sendable>(of type: T.Type, named name: String) throws -> T? {
        guard let entry = load(name, as: T.self), let data = entry.data else { return nil }
        if mutant == .readsOnlyTheWrittenType, entry.type != "\(T.self)" { return nil }
        if mutant == .returnsTheWrittenInstance, entry.type == "\(T.self)", let written = entry.written as? T {
            return written
        }
        let slot = slot(name, T.self)
        if mutant == .sharesTheDecodedInstance, let kept = decoded.withLock({ $0[slot] }), kept.json == data,
            kept.type == "\(T.self)", let same = kept.value as? T
        {
            return same
        }
        do {
            let value = try JSONCodec.decode(T.self, from: data)
            if mutant == .readsStoredNilAsMissing, data == Data("null".utf8) { return nil }
            if mutant == .sharesTheDecodedInstance { decoded.withLock { $0[slot] = (data, "\(T.self)", value) } }
            return value
        } catch {
            if mutant == .readsUndecodableValuesAsNil { return nil }
            throw KVStoreError.decodingFailed(key: name, underlying: "\(error)")
        }
    }
}
