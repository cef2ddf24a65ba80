extension EntryName {
    /// The name as the system takes it: its bytes, NUL-terminated.
    var systemName: [CChar] { (undecodableBytes ?? Array(string.utf8)).map { CChar(bitPattern: $0) } + [0] }
}
