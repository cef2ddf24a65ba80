import ForgeCore
import Foundation

@testable import ForgeCrypt

/// A keychain in memory that follows the Security framework's rules for generic passwords, so
/// ``KeychainCrypt``'s logic can be tested without it.
///
/// - Items are told apart by class, service, account, access group and synchronizable (the primary key):
///   adding a second one fails with `errSecDuplicateItem`.
/// - A query matches on each attribute it holds, `kSecAttrAccessible` included (which is why lookups must
///   not hold it); without `kSecAttrSynchronizable` it matches only non-synchronizable items.
/// - Finding, updating or deleting nothing is `errSecItemNotFound`; update and delete change every match.
/// - Copying accounts needs `kSecMatchLimitAll` and `kSecReturnAttributes` (else `errSecParam`, where the real
///   call would return no accounts); it returns the account of every match, in the order the items were added.
/// - `kSecMatchLimit` or `kSecReturnData` in a delete, or attributes that are not updatable, are `errSecParam`;
///   so is a synchronizable item with a "this device only" accessibility.
/// - While ``isLocked``, items whose accessibility needs an unlocked device cannot be added, read, listed or
///   updated: `errSecInteractionNotAllowed`.
/// - Scripted statuses (``failNext(_:with:)``, ``failAlways(_:with:)``) replace the next or every call.
final class FakeKeychain: KeychainServices {
    enum Operation: Sendable, Hashable {
        case add, copyMatching, copyAccounts, update, delete
    }

    struct Item: Sendable, Equatable {
        var service: String
        var account: String
        var accessGroup: String
        var synchronizable: Bool
        var accessibility: KeychainAccessibility
        var data: Data
    }

    struct Call: Sendable, Equatable {
        var operation: Operation
        var query: KeychainQuery
        var attributes: KeychainQuery?
    }

    private struct State {
        var items: [Item] = []
        var calls: [Call] = []
        var nextFailures: [Operation: [Int32]] = [:]
        var permanentFailures: [Operation: Int32] = [:]
        var isLocked = false
    }

    /// The access group of items added without one, like an app's first keychain access group.
    static let defaultAccessGroup = "TEAMID.com.example.app"

    private let state = LockedState(State())

    var items: [Item] { state.withLock { $0.items } }
    var calls: [Call] { state.withLock { $0.calls } }

    var isLocked: Bool {
        get { state.withLock { $0.isLocked } }
        set { state.withLock { $0.isLocked = newValue } }
    }

    /// Makes the next call of `operation` return `status` without doing anything.
    func failNext(_ operation: Operation, with status: Int32) {
        state.withLock { $0.nextFailures[operation, default: []].append(status) }
    }

    /// Makes every call of `operation` return `status` without doing anything.
    func failAlways(_ operation: Operation, with status: Int32) {
        state.withLock { $0.permanentFailures[operation] = status }
    }

    func add(_ attributes: KeychainQuery) -> Int32 {
        perform(.add, attributes) { state in
            guard attributes[.itemClass] == .genericPassword else { return KeychainStatus.parameterError }
            let item = Item(
                service: Self.string(attributes[.service]) ?? "",
                account: Self.string(attributes[.account]) ?? "",
                accessGroup: Self.string(attributes[.accessGroup]) ?? Self.defaultAccessGroup,
                synchronizable: attributes[.synchronizable] == .bool(true),
                accessibility: Self.accessibility(attributes[.accessible]) ?? .whenUnlocked,
                data: Self.data(attributes[.valueData]) ?? Data()
            )
            if item.synchronizable && item.accessibility.isThisDeviceOnly { return KeychainStatus.parameterError }
            if state.isLocked && item.accessibility.requiresUnlockedDevice {
                return KeychainStatus.interactionNotAllowed
            }
            let isDuplicate = state.items.contains {
                $0.service.utf8.elementsEqual(item.service.utf8) && $0.account.utf8.elementsEqual(item.account.utf8)
                    && $0.accessGroup == item.accessGroup && $0.synchronizable == item.synchronizable
            }
            if isDuplicate { return KeychainStatus.duplicateItem }
            state.items.append(item)
            return KeychainStatus.success
        }
    }

    func copyMatching(_ query: KeychainQuery) -> (status: Int32, data: Data?) {
        var found: Data?
        let status = perform(.copyMatching, query) { state in
            guard let index = state.items.firstIndex(where: { Self.matches($0, query) }) else {
                return KeychainStatus.itemNotFound
            }
            let item = state.items[index]
            if state.isLocked && item.accessibility.requiresUnlockedDevice {
                return KeychainStatus.interactionNotAllowed
            }
            if query[.returnData] == .bool(true) { found = item.data }
            return KeychainStatus.success
        }
        return (status, found)
    }

    func copyAccounts(_ query: KeychainQuery) -> (status: Int32, accounts: [String]) {
        var accounts: [String] = []
        let status = perform(.copyAccounts, query) { state in
            guard query[.matchLimit] == .matchLimitAll, query[.returnAttributes] == .bool(true),
                query[.returnData] == nil
            else { return KeychainStatus.parameterError }
            let matches = state.items.filter { Self.matches($0, query) }
            if matches.isEmpty { return KeychainStatus.itemNotFound }
            if state.isLocked && matches.contains(where: \.accessibility.requiresUnlockedDevice) {
                return KeychainStatus.interactionNotAllowed
            }
            accounts = matches.map(\.account)
            return KeychainStatus.success
        }
        return (status, accounts)
    }

    /// Adds `item` as it is, as another app or an older version would have written it: an account in any
    /// spelling, in any access group.
    func insert(_ item: Item) {
        state.withLock { $0.items.append(item) }
    }

    func update(_ query: KeychainQuery, with attributes: KeychainQuery) -> Int32 {
        perform(.update, query, attributes) { state in
            let notUpdatable: [KeychainQuery.Attribute] = [.itemClass, .returnData, .matchLimit]
            if notUpdatable.contains(where: { attributes[$0] != nil }) || query[.valueData] != nil {
                return KeychainStatus.parameterError
            }
            let indices = state.items.indices.filter { Self.matches(state.items[$0], query) }
            if indices.isEmpty { return KeychainStatus.itemNotFound }
            if state.isLocked && indices.contains(where: { state.items[$0].accessibility.requiresUnlockedDevice }) {
                return KeychainStatus.interactionNotAllowed
            }
            var updated = state.items
            for index in indices {
                if let data = Self.data(attributes[.valueData]) { updated[index].data = data }
                if let accessibility = Self.accessibility(attributes[.accessible]) {
                    updated[index].accessibility = accessibility
                }
                if updated[index].synchronizable && updated[index].accessibility.isThisDeviceOnly {
                    return KeychainStatus.parameterError
                }
            }
            state.items = updated
            return KeychainStatus.success
        }
    }

    func delete(_ query: KeychainQuery) -> Int32 {
        perform(.delete, query) { state in
            if query[.matchLimit] != nil || query[.returnData] != nil { return KeychainStatus.parameterError }
            let before = state.items.count
            state.items.removeAll { Self.matches($0, query) }
            return state.items.count == before ? KeychainStatus.itemNotFound : KeychainStatus.success
        }
    }

    private func perform(
        _ operation: Operation,
        _ query: KeychainQuery,
        _ attributes: KeychainQuery? = nil,
        _ body: (inout State) -> Int32
    ) -> Int32 {
        state.withLock { state in
            state.calls.append(Call(operation: operation, query: query, attributes: attributes))
            if var queued = state.nextFailures[operation], !queued.isEmpty {
                let status = queued.removeFirst()
                state.nextFailures[operation] = queued
                return status
            }
            if let status = state.permanentFailures[operation] { return status }
            return body(&state)
        }
    }

    private static func matches(_ item: Item, _ query: KeychainQuery) -> Bool {
        guard query[.itemClass] == .genericPassword else { return false }
        if let service = string(query[.service]), !service.utf8.elementsEqual(item.service.utf8) { return false }
        if let account = string(query[.account]), !account.utf8.elementsEqual(item.account.utf8) { return false }
        if let group = string(query[.accessGroup]), group != item.accessGroup { return false }
        if let accessibility = accessibility(query[.accessible]), accessibility != item.accessibility { return false }
        return (query[.synchronizable] == .bool(true)) == item.synchronizable
    }

    private static func string(_ value: KeychainQuery.Value?) -> String? {
        if case .string(let string) = value { return string }
        return nil
    }

    private static func data(_ value: KeychainQuery.Value?) -> Data? {
        if case .data(let data) = value { return data }
        return nil
    }

    private static func accessibility(_ value: KeychainQuery.Value?) -> KeychainAccessibility? {
        if case .accessibility(let accessibility) = value { return accessibility }
        return nil
    }
}
