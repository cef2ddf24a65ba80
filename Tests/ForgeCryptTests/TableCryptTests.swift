import ForgeCrypt
import ForgeStorageTesting
import Foundation
import Testing

/// A store that implements only ``CryptBackend`` (``TableCrypt``, one file) gets the whole typed API from the library
/// and passes the whole conformance suite, sync and async, with the coding, typed errors, `contains` and `keys()` it
/// did not write.
struct TableCryptTests {
    let token = CryptKey<String>(key: "auth.access")

    @Test func passesTheConformanceSuite() async {
        await CryptStoringConformance.run(makeSubject: {
            let table = TableCrypt.Table()
            return CryptStoringConformance.Subject(
                TableCrypt(table: table, namespace: "store"),
                reopen: { TableCrypt(table: table, namespace: "store") },
                neighbour: TableCrypt(table: table, namespace: "neighbour")
            )
        })
    }

    @Test func passesTheAsyncConformanceSuite() async {
        await AsyncCryptStoringConformance.run(makeSubject: {
            let table = TableCrypt.Table()
            return AsyncCryptStoringConformance.Subject(
                TableCrypt(table: table, namespace: "store"),
                reopen: { TableCrypt(table: table, namespace: "store") },
                neighbour: TableCrypt(table: table, namespace: "neighbour")
            )
        })
    }

    @Test func storesStringsAsTheirUTF8AndOtherValuesAsJSON() throws {
        let table = TableCrypt.Table()
        let store = TableCrypt(table: table, namespace: "store")
        try store.set("tök€n", for: token)
        try store.set([1, 2], for: CryptKey<[Int]>(key: "numbers"))

        #expect(store.storedSecret(named: token.key) == Data("tök€n".utf8))
        #expect(store.storedSecret(named: "numbers") == Data("[1,2]".utf8))
    }

    @Test func aSecretThatDoesNotDecodeThrowsATypedErrorNamingTheKey() throws {
        let store = TableCrypt(table: TableCrypt.Table(), namespace: "store")
        store.store(Data([0xFF]), named: token.key)

        let error = #expect(throws: CryptStoreError.self) { try store.get(token) }
        #expect(error == .decodingFailed(key: token.key, underlying: "the stored bytes are not UTF-8 text"))
        #expect(try store.contains(token))
    }

    @Test func listsEachKeyOnceInNFCAndSorted() throws {
        let store = TableCrypt(table: TableCrypt.Table(), namespace: "store")
        try store.set("b", for: CryptKey<String>(key: "b"))
        try store.set("é", for: CryptKey<String>(key: "cafe\u{301}"))

        #expect(try store.keys().map { Array($0.utf8) } == [Array("b".utf8), Array("caf\u{E9}".utf8)])
    }
}
