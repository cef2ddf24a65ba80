import Foundation

/// The process's standard output, as a ``CommandOutput``.
struct StandardOutput: CommandOutput {
    /// Whether standard output is a terminal (`isatty`).
    var isTerminal: Bool {
        isatty(STDOUT_FILENO) == 1
    }

    func write(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }
}
