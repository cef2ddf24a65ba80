internal import ForgeCore

/// Where ``DiskKVStore`` keeps a key: the escaped key as a file name, or, for keys too long for that,
/// a few candidate names made of a readable prefix and a hash.
enum KeyFileName: Equatable {
    /// The key's own escaped name, `{escaped}.json`.
    case exact(String)
    /// Candidate names, tried in order, for a key whose escaped name is too long; its file holds the key.
    case hashed([String])

    static let fileExtension = ".json"
    /// How many candidates a long key has; keys that share a hash take the next free one.
    static let slotCount = 8

    init(key: String) {
        let encoded = FileNameEncoding.encode(key)
        if encoded.utf8.count + Self.fileExtension.utf8.count <= FileNameEncoding.maximumNameLength {
            self = .exact(encoded + Self.fileExtension)
            return
        }
        let stem = FileNameEncoding.shortened(encoded, hashOf: key)
        self = .hashed(
            (0..<Self.slotCount)
                .map { slot in
                    stem + (slot == 0 ? "" : "~\(slot)") + Self.fileExtension
                }
        )
    }

    /// The key whose own escaped name is the file name `name`, or nil when no key's exact name is `name` (a file
    /// of a key too long for its name, a file no key makes).
    static func key(ofExactName name: String) -> String? {
        guard name.hasSuffix(fileExtension),
            let key = FileNameEncoding.decode(String(name.dropLast(fileExtension.count))),
            KeyFileName(key: key) == .exact(name)
        else { return nil }
        return key
    }
}
