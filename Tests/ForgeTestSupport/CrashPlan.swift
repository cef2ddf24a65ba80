/// What the crash writer (the `ForgeCrashWriter` child process) writes, in which order, and how the crash
/// tests recognise a complete value.
///
/// The writer runs rounds: round `g` writes generation `g` of every ``slots`` entry, in order, then churns
/// the scratch namespaces (writes, a delete and a remove-all there). A value is self-checking: its header
/// names its generation and length, and its body is fixed by the slot and the generation, so a torn,
/// truncated or mixed value is never mistaken for a complete one.
package enum CrashPlan {
    /// The disk store a slot lives in.
    package enum Store: String, Sendable, CaseIterable {
        /// A `DiskKVStore` in ``kvNamespace``, holding `String` values.
        case keyValue
        /// A `DiskFileStore` in ``filesNamespace``.
        case files
        /// An `EncryptedFileCrypt` vault in ``vaultNamespace``, holding `String` secrets.
        case vault
    }

    /// One key or path the writer writes in every round.
    package struct Slot: Sendable, Hashable, CustomStringConvertible {
        /// The store the slot lives in.
        package let store: Store
        /// The key, or the file's relative path.
        package let name: String
        /// The slot's place in ``CrashPlan/slots``.
        package let index: Int
        /// About how many bytes the slot's value has.
        package let size: Int

        /// The store and the name, for messages.
        package var description: String { "\(store.rawValue) '\(name)'" }
    }

    /// The namespace of the key-value slots.
    package static let kvNamespace = "crash-kv"
    /// The namespace of the file slots.
    package static let filesNamespace = "crash-files"
    /// The namespace of the vault slots.
    package static let vaultNamespace = "crash-vault"
    /// A key-value namespace the writer fills and clears (`removeAll`) in every round.
    package static let kvScratchNamespace = "crash-kv-scratch"
    /// A file namespace the writer fills, deletes in, and clears (`deleteAll`) in every round.
    package static let filesScratchNamespace = "crash-files-scratch"
    /// The vault's key file, relative to the writer's folder.
    package static let keyFileName = "keys/master.key"

    /// Every slot, in the order the writer writes them within a round.
    package static let slots: [Slot] = {
        let layout: [(Store, String, Int)] = [
            (.keyValue, "settings.small", 16),
            (.keyValue, "settings.Medium value", 4_000),
            (.keyValue, "settings/large\u{0}é🔥", 60_000),
            (.keyValue, String(repeating: "a.very.long.key.", count: 30), 2_000),
            (.files, "top.bin", 100),
            (.files, "docs/2026/report.pdf", 100_000),
            (.files, "docs/notes/é🔥 today.txt", 3_000),
            (.files, "images/photo.jpg", 60_000),
            (.vault, "auth.token", 64),
            (.vault, "auth.refresh", 3_000),
            (.vault, "backup.blob", 80_000),
        ]
        return layout.enumerated().map { Slot(store: $1.0, name: $1.1, index: $0, size: $1.2) }
    }()

    /// The value of `slot` at `generation`: `FORGE <generation> <repeats>\n` and a body fixed by both.
    ///
    /// The length changes with the generation, so an old value partly overwritten by a new one shows.
    package static func value(for slot: Slot, generation: Int) -> String {
        let block = "<\(slot.index):\(generation)>"
        let repeats = max(1, (slot.size + generation % 7 * slot.size / 8) / block.utf8.count)
        return header(generation: generation, repeats: repeats) + String(repeating: block, count: repeats)
    }

    /// The generation of `value` when it is a complete value of `slot`, or nil when it is anything else.
    package static func generation(of value: String, for slot: Slot) -> Int? {
        guard let newline = value.firstIndex(of: "\n") else { return nil }
        let fields = value[..<newline].split(separator: " ")
        guard fields.count == 3, fields[0] == "FORGE", let generation = Int(fields[1]), generation >= 0 else {
            return nil
        }
        return value == Self.value(for: slot, generation: generation) ? generation : nil
    }

    private static func header(generation: Int, repeats: Int) -> String {
        "FORGE \(generation) \(repeats)\n"
    }
}
