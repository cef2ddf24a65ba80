import Foundation

/// Where a command writes what it prints: ``StandardOutput`` when `forge` runs, a buffer in tests.
///
/// Commands whose output depends on where it goes (such as `files cat`, which will not write binary to a
/// terminal) take one, so tests can say "this is a terminal" without a real one.
protocol CommandOutput {
    /// Whether the output is shown on a terminal, rather than piped or redirected to a file.
    var isTerminal: Bool { get }

    /// Writes `data` as it is.
    mutating func write(_ data: Data)
}

extension CommandOutput {
    /// Writes `line` in UTF-8, then a newline.
    mutating func write(line: String) {
        write(Data((line + "\n").utf8))
    }
}
