import ForgeCrypt
import Testing

/// `CryptKey` is written with the reference's label, `CryptKey(key:)`, or without one, as `KVKey("name")` is: both
/// name the same secret.
struct CryptKeyTests {
    @Test func theUnlabeledKeyIsTheLabeledOne() {
        let unlabeled = CryptKey<String>("auth.access")
        #expect(unlabeled == CryptKey<String>(key: "auth.access"))
        #expect(unlabeled.key == "auth.access")
        #expect(unlabeled.description == #"CryptKey<String>("auth.access")"#)
    }

    @Test func aSecretWrittenUnderOneFormIsReadUnderTheOther() throws {
        let secrets = InMemoryCrypt()
        try secrets.set("t0k3n", for: CryptKey<String>("auth.access"))
        #expect(try secrets.get(CryptKey<String>(key: "auth.access")) == "t0k3n")
        try secrets.set("r3fr3sh", for: CryptKey<String>(key: "auth.refresh"))
        #expect(try secrets.get(CryptKey<String>("auth.refresh")) == "r3fr3sh")
    }
}
