/// One entry of a folder: its name as a store shows it, its kind, and its name on disk.
package struct FolderEntry: Sendable, Equatable {
    /// The name as a store shows it: the name on disk, or its NFC spelling when the disk has it in NFD.
    ///
    /// A name whose bytes are not UTF-8 (which no store writes) has each ill-formed sequence replaced by U+FFFD.
    package var name: String
    /// What the entry is; a symbolic link is reported as a link, never followed.
    package var kind: FileStatus.Kind
    /// The name on disk, byte for byte, for calls that act on the entry.
    package var storedName: EntryName

    /// An entry whose shown name is its name on disk.
    package init(storedName: EntryName, kind: FileStatus.Kind) {
        self.name = storedName.string
        self.kind = kind
        self.storedName = storedName
    }
}

/// A name in a folder as the system stores it: bytes, which are UTF-8 for every name a store writes.
package struct EntryName: Sendable, Hashable {
    /// The name as text; ill-formed UTF-8 sequences become U+FFFD.
    package let string: String
    /// The name's bytes when they are not UTF-8, so the entry can still be reached; nil for every name a store
    /// writes.
    package let undecodableBytes: [UInt8]?

    /// The name spelled by `string`'s UTF-8.
    package init(_ string: String) {
        self.string = string
        self.undecodableBytes = nil
    }

    /// The name spelled by the NUL-terminated `cString`, as `readdir` gives it.
    package init(cString: UnsafePointer<CChar>) {
        // One validating pass, which `String` does fastest from a C string; the ill-formed case, which no store
        // writes, decodes again with repairs.
        if let string = String(validatingCString: cString) {
            self.string = string
            self.undecodableBytes = nil
        } else {
            self.string = String(cString: cString)
            let length = (0...).first { cString[$0] == 0 } ?? 0
            self.undecodableBytes = UnsafeBufferPointer(start: cString, count: length).map { UInt8(bitPattern: $0) }
        }
    }

    /// Whether the bytes are UTF-8, as every name a store writes is: only such entries can be store content.
    package var isUTF8: Bool { undecodableBytes == nil }

    /// Whether two names are the same bytes: unlike Swift strings, names in NFC and NFD are different names.
    package static func == (lhs: EntryName, rhs: EntryName) -> Bool {
        lhs.undecodableBytes == rhs.undecodableBytes && lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    /// Hashes the name's bytes.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(undecodableBytes ?? Array(string.utf8))
    }
}
