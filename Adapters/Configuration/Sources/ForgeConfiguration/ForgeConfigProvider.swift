public import Configuration
public import ForgeKVStore
internal import ServiceLifecycle
internal import Synchronization

/// A swift-configuration `ConfigProvider` on any ForgeStorage key-value store that streams its keys: values set in
/// the store, on this server or another, reach every `ConfigReader` over it.
///
/// Keep feature flags in a `PostgresKVStore` that every server shares, and each server's reader sees a flag changed
/// on any of them. Test the same code with the in-memory twin, `ReactiveKVStore(InMemoryKVStore())`:
///
/// ```swift
/// let store = ReactiveKVStore(InMemoryKVStore())
/// try await store.set(KVKey<Bool>("flags.features.newCheckout"), value: true)
///
/// let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
/// try await provider.load()
/// let config = ConfigReader(provider: provider)
/// config.bool(forKey: "features.newCheckout", default: false)  // true
/// ```
///
/// ## Keys
/// A configuration key's components are joined with dots, after the prefix and a dot when there is one: with the
/// prefix `"flags"`, `features.newCheckout` is read from the store key `"flags.features.newCheckout"`. The key's
/// context is not part of the store key. ``storeKey(for:)`` says which store key a configuration key reads.
///
/// ## Values
/// A value is the JSON the store's typed API wrote, read as the type the reader asks for:
///
/// | Asked for | Reads | Written by |
/// |---|---|---|
/// | string | a JSON string | `KVKey<String>` |
/// | int | a whole number (`3` or `3.0`) | `KVKey<Int>` |
/// | double | any number | `KVKey<Double>`, `KVKey<Int>` |
/// | bool | `true` or `false` | `KVKey<Bool>` |
/// | bytes | a base64 string (see `bytesDecoder`), or an array of numbers from 0 to 255 | `KVKey<Data>`, `KVKey<[UInt8]>` |
/// | arrays | an array of such elements; an empty array as any array type | `KVKey<[String]>`, `KVKey<[Data]>`, … |
///
/// Nothing is converted beyond this: a string is never read as a number or a Boolean, nor a number as a Boolean. A
/// value that does not read as the type asked for throws ``ForgeConfigError/valueNotConvertible(key:type:stored:)``
/// naming the store key; a missing key, JSON `null`, or a value that is not JSON at all reads as no value.
///
/// ## Reading, fetching, watching
/// - `value(forKey:type:)` and `snapshot()` read a snapshot the provider keeps in memory: empty until ``load()`` or
///   ``run()`` reads the store, then kept current by the streams of the keys it follows.
/// - `fetchValue(forKey:type:)` reads the store, and updates the snapshot with what it read.
/// - `watchValue(forKey:type:updatesHandler:)` emits the key's snapshot value, then its value after each change the
///   store's stream of the key tells of: it follows the key itself while it watches, with or without ``run()``.
///   `watchSnapshot(updatesHandler:)` emits a snapshot after each change, following every key the provider knows
///   while it watches.
///
/// ## Following the store
/// Run the provider as a swift-service-lifecycle `Service` beside the store's client. ``run()`` loads the store
/// unless a load already did, then follows every key the load found and every key a reader asks for, each through
/// the store's `stream(_:)`, until the service group shuts down:
///
/// ```swift
/// let store = PostgresKVStore(client: client, namespace: "config")
/// let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
/// let config = ConfigReader(provider: provider)
/// let server = CheckoutServer(config: config)  // your service, reading `config`
/// let group = ServiceGroup(services: [client, provider, server], logger: logger)
/// try await group.run()
/// ```
///
/// A key first set after the provider loaded is followed once a reader asks for it: that first
/// `value(forKey:type:)` answers what the snapshot holds (nothing), and the key's stream brings its value to the
/// snapshot right after; `fetchValue(forKey:type:)` and `watchValue(forKey:type:updatesHandler:)` read it from the
/// store at once.
public final class ForgeConfigProvider: Sendable {
    /// The store the provider reads and follows.
    public let store: any AsyncKVStreaming

    /// The first part of every store key the provider reads, joined to the configuration key with a dot; nil when the
    /// provider reads the store's keys as they are.
    public var keyPrefix: String? { lookup.keyPrefix }

    /// The key joining, conversion and secrets rule the provider and its snapshots share.
    let lookup: ConfigValueLookup

    /// The snapshot, the keys to follow and the watchers.
    let state = Mutex(ProviderState())

    /// The tasks that follow the store's keys.
    let followers = KeyFollowers()

    /// Creates a provider on `store`, with an empty snapshot until ``load()`` or ``run()`` reads the store.
    ///
    /// - Parameters:
    ///   - store: The store that holds the values: a `PostgresKVStore` shared by several servers, a
    ///     `ReactiveKVStore` over any synchronous store (`ReactiveKVStore(InMemoryKVStore())` in tests), or any
    ///     other `AsyncKVStreaming` store.
    ///   - keyPrefix: The first part of the store keys the provider reads, which it joins to each configuration key
    ///     with a dot; nil (or empty) to read the configuration keys as store keys.
    ///   - name: A name that tells this provider from others in `providerName`, which access reports show.
    ///   - secretsSpecifier: Which values are secret, by configuration key (components joined with dots, without the
    ///     prefix) and value; a secret value is redacted in access reports and descriptions.
    ///   - bytesDecoder: How a string reads as bytes; base64 by default, as a `KVKey<Data>` writes them.
    public init(
        store: some AsyncKVStreaming,
        keyPrefix: String? = nil,
        name: String? = nil,
        secretsSpecifier: SecretsSpecifier<String, ConfigContent> = .none,
        bytesDecoder: some ConfigBytesFromStringDecoder = .base64
    ) {
        self.store = store
        self.lookup = ConfigValueLookup(
            providerName: "ForgeConfigProvider" + (name.map { "[\($0)]" } ?? ""),
            keyPrefix: keyPrefix.flatMap { $0.isEmpty ? nil : $0 },
            secretsSpecifier: secretsSpecifier,
            bytesDecoder: bytesDecoder
        )
    }

    /// The store key the configuration key `key` is read from: its components joined with dots, after the prefix
    /// and a dot when there is one.
    ///
    /// ```swift
    /// let provider = ForgeConfigProvider(store: store, keyPrefix: "flags")
    /// provider.storeKey(for: ["features", "newCheckout"])  // "flags.features.newCheckout"
    /// ```
    public func storeKey(for key: AbsoluteConfigKey) -> String {
        lookup.storeKey(for: key)
    }

    /// Reads every value under the prefix from the store into the snapshot (again, when it was loaded before), and
    /// tells the watchers of what changed.
    ///
    /// Call it before the first read when the provider does not run as a service, or to refresh a provider that
    /// follows no key. A key the provider follows keeps the value its stream brings: a read that raced two quick
    /// writes may see a value the stream folds away.
    ///
    /// - Throws: The store's error (`KVStoreError.listFailed(underlying:)` or `KVStoreError.readFailed(key:underlying:)`)
    ///   when it cannot be read; the snapshot is left as it was.
    public func load() async throws {
        let since = state.withLock { $0.version }
        let storeKeys = try await store.keys().filter(lookup.holds)
        var changes: [(storeKey: String, value: StoredConfigValue?)] = []
        changes.reserveCapacity(storeKeys.count)
        for storeKey in storeKeys {
            changes.append((storeKey, try await store.get(KVKey<StoredConfigValue>(storeKey))))
        }
        let found = Set(storeKeys)
        // A followed key's snapshot value is its stream's (see `fetchValue(forKey:type:)`).
        changes.removeAll { followers.isFollowing($0.storeKey) }
        state.withLock { state in
            // What the snapshot holds and the store no longer does was removed.
            for storeKey in state.values.keys where !found.contains(storeKey) && !followers.isFollowing(storeKey) {
                changes.append((storeKey, nil))
            }
            state.apply(changes, unchangedSince: since, lookup: lookup)
            state.loaded(storeKeys)
        }
    }

    /// Follows `storeKey` through the store's stream until the task is cancelled: each value it emits becomes the
    /// snapshot's, and the watchers of the key are told.
    func follow(_ storeKey: String) async {
        for await value in store.stream(KVKey<StoredConfigValue>(storeKey)) {
            state.withLock { $0.apply([(storeKey, value)], lookup: lookup) }
        }
    }

    /// Follows every key the provider knows, and each one it learns of, until the task is cancelled or its service
    /// group shuts down gracefully; then waits until the keys' tasks it held alone have ended.
    func followKnownKeys() async {
        let (feed, continuation) = AsyncStream<String>.makeStream()
        let id = state.withLock { $0.addFeed(continuation) }
        var held: [String] = []
        for await storeKey in feed.cancelOnGracefulShutdown() {
            followers.hold(storeKey) { await self.follow(storeKey) }
            held.append(storeKey)
        }
        state.withLock { $0.removeFeed(id) }
        await followers.release(held)
    }
}

extension ForgeConfigProvider: CustomStringConvertible {
    /// The provider's name and the number of values its snapshot holds.
    public var description: String {
        "\(lookup.providerName)[\(state.withLock { $0.values.count }) values]"
    }
}
