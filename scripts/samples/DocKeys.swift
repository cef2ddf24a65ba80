// The keys the documentation's samples name, declared once as an app declares them.
import ForgeStorage

enum TaskKeys {
    static let onboarding = KVKey<Bool>("taskflow.onboarding")
    static let taskCount = KVKey<Int>("taskflow.taskCount")
}

enum AuthKeys {
    static let accessToken = CryptKey<String>(key: "auth.access")
}
