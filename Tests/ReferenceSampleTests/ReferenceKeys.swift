// The keys the reference's samples name, as the reference declares them, and the few names they assume that it
// does not declare.
import ForgeCrypt
import ForgeKVStore
import Foundation

// forgestorage-kvstore.md, "Keys.swift"
enum TaskKeys {
    static let onboarding = KVKey<Bool>("taskflow.onboarding")
    static let projectName = KVKey<String?>("taskflow.projectName")
    static let taskCount = KVKey<Int>("taskflow.taskCount")
    static let settings = KVKey<TaskSettings>("taskflow.settings")
}

enum CacheKeys {
    static let lastPurgeDate = KVKey<Date?>("cache.lastPurgeDate")
}

// Scaffolding: the reference names `TaskSettings` (Keys.swift, ErrorHandling.swift) without declaring it; any
// `Codable & Sendable` model fits. A `Double` lets a test make a value JSON cannot encode.
struct TaskSettings: Codable, Sendable, Equatable {
    var theme: String
    var fontScale: Double
}

// Scaffolding: forgestorage-testing.md's "TaskFlowServiceTests.swift" names `AuthKeys` without declaring it; declared
// as the same document's `TestAuthKeys` (KeychainTests.swift) declares its access token.
enum AuthKeys {
    static let accessToken = CryptKey<String>(key: "auth.access")
}
