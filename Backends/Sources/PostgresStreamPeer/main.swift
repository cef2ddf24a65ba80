// One instance of a service sharing a PostgresKVStore namespace with others, for the tests of processes that share
// one namespace (PostgresKVStoreProcessesTests). It streams one key and prints each value the stream gives as
// `seen VALUE` (`seen -` for no value); each line `set VALUE` on its input stores VALUE for the key. It ends at the
// end of its input.
//
// Usage: PostgresStreamPeer NAMESPACE, with FORGE_POSTGRES_URL naming the server.

import ForgeKVStore
import ForgePostgres
import Foundation
import PostgresNIO

/// The key every peer streams and writes.
let sharedKey = KVKey<String>("shared")

/// Writes `line` to standard output at once, since the test reads it while the peer runs.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The lines of standard input, read on a thread of their own, since reading blocks.
func inputLines() -> AsyncStream<String> {
    let (lines, input) = AsyncStream<String>.makeStream()
    Thread {
        while let line = readLine() { input.yield(line) }
        input.finish()
    }
    .start()
    return lines
}

guard CommandLine.arguments.count == 2, let url = ProcessInfo.processInfo.environment["FORGE_POSTGRES_URL"] else {
    FileHandle.standardError.write(Data("usage: FORGE_POSTGRES_URL=… PostgresStreamPeer NAMESPACE\n".utf8))
    exit(2)
}
let client = PostgresClient(configuration: try PostgresClient.Configuration(url: url))
try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await client.run() }
    let store = PostgresKVStore(client: client, namespace: CommandLine.arguments[1])
    group.addTask {
        for await value in store.stream(sharedKey) { say("seen \(value ?? "-")") }
    }
    for await line in inputLines() where line.hasPrefix("set ") {
        try await store.set(sharedKey, value: String(line.dropFirst("set ".count)))
    }
    group.cancelAll()
}
