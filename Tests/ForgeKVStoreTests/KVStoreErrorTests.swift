import Testing

@testable import ForgeKVStore

struct KVStoreErrorTests {
    @Test func descriptionsNameTheKeyAndTheReason() {
        let cases: [(KVStoreError, String)] = [
            (.encodingFailed(key: "a.b", underlying: "nan"), "Could not encode the value for key 'a.b': nan"),
            (
                .writeFailed(key: "a.b", underlying: "No space left"),
                "Could not write the value for key 'a.b': No space left"
            ),
            (.removeFailed(key: "a.b", underlying: "denied"), "Could not remove the value for key 'a.b': denied"),
            (.removeAllFailed(underlying: "busy"), "Could not remove all values: busy"),
        ]
        for (error, text) in cases {
            #expect(error.errorDescription == text)
            #expect(error.description == text)
        }
        #expect(KVStoreError.writeFailed(key: "k", underlying: "").key == "k")
        #expect(KVStoreError.removeAllFailed(underlying: "").key == nil)
    }

    @Test func keysCompareByStringAndType() {
        #expect(KVKey<Int>("a") == KVKey<Int>("a"))
        #expect(KVKey<Int>("a") != KVKey<Int>("b"))
        #expect(KVKey<Int>("a").description == "KVKey<Int>(\"a\")")
    }
}
