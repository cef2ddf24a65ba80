import Foundation

extension Process {
    /// Starts `executable` with `arguments`, its output discarded.
    static func run(_ executable: URL, arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }
}
