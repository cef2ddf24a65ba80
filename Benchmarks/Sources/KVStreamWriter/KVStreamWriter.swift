import BenchmarkSupport
import ForgeKVStore
import Foundation

// The writing process of the cross-process latency benchmark (`KVStreamLatency` starts it): one stamped write each
// time its reader asks, so that every write is observed on its own.
//
//     KVStreamWriter ours FOLDER NAMESPACE KEY   sets KEY in DiskKVStore(directory: .custom(FOLDER), namespace:)
//     KVStreamWriter limit FILE                  writes FILE as the limit does (temporary file, then rename)
//
// Each line of standard input is the number of the write asked for: the writer reads the monotonic clock, writes
// `LatencyStamp(index: number, sent: clock)` as JSON, and waits for the next line. It ends with its input.

@main
struct KVStreamWriter {
    static func main() throws {
        guard let write = writer(for: Array(CommandLine.arguments.dropFirst())) else {
            FileHandle.standardError.write(
                Data("usage: KVStreamWriter ours FOLDER NAMESPACE KEY | KVStreamWriter limit FILE\n".utf8)
            )
            exit(2)
        }
        while let line = readLine() {
            guard let index = Int(line) else { throw WriterError.malformedRequest(line) }
            try write(LatencyStamp(index: index, sent: MonotonicClock.nanoseconds()))
        }
    }

    /// The write the arguments ask for: a `DiskKVStore` set, or the limit's raw atomic write.
    private static func writer(for arguments: [String]) -> ((LatencyStamp) throws -> Void)? {
        switch (arguments.first, arguments.count) {
        case ("ours", 4):
            let store = DiskKVStore(directory: .custom(URL(fileURLWithPath: arguments[1])), namespace: arguments[2])
            let key = KVKey<LatencyStamp>(arguments[3])
            return { stamp in try store.set(key, value: stamp) }
        case ("limit", 2):
            let path = arguments[1]
            return { stamp in
                guard Limit.writeAtomically(try Codec.encoder.encode(stamp), toPath: path) else {
                    throw WriterError.writeFailed(path)
                }
            }
        default:
            return nil
        }
    }
}

/// Why the writer stopped.
enum WriterError: Error {
    /// A line of input was not the number of a write.
    case malformedRequest(String)
    /// The limit's write to this path failed.
    case writeFailed(String)
}
