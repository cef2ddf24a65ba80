import Foundation

@testable import forge

/// A ``CommandOutput`` that keeps what is written, and says it is a terminal or not as a test chooses.
struct CapturedOutput: CommandOutput {
    var isTerminal: Bool
    private(set) var data = Data()

    /// The output as UTF-8 text.
    var text: String { String(decoding: data, as: UTF8.self) }

    /// The third tab-separated column of each line: the paths `files ls` lists.
    var listedPaths: [String] {
        text.split(separator: "\n")
            .map { line in
                line.split(separator: "\t", omittingEmptySubsequences: false).last.map(String.init) ?? ""
            }
    }

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    mutating func write(_ data: Data) {
        self.data.append(data)
    }
}
