import Foundation
import Testing

@testable import ForgeCrypt

struct CryptStoreErrorTests {
    @Test func descriptionsNameTheKeyOrPathAndTheReason() {
        let cases: [(CryptStoreError, [String])] = [
            (.wrongMasterKey(path: "/v", createdWith: .passphrase), ["/v", "master key", "a passphrase"]),
            (.wrongMasterKey(path: "/v", createdWith: nil), ["/v", "a key file or a symmetric key"]),
            (.keyFileNotFound(path: "/k", vaultPath: "/v"), ["/k", "/v", "does not exist"]),
            (.tamperedItem(key: "auth.access"), ["auth.access", "authentication"]),
            (.corruptVault(path: "/v", reason: "unknown format 9"), ["/v", "unknown format 9"]),
            (.insecureKeyFile(path: "/k", permissions: 0o644), ["/k", "0644"]),
            (.notAccessibleNow(key: "auth.access"), ["auth.access", "locked"]),
            (.missingEntitlement(key: nil), ["entitlement"]),
            (.unexpectedStatus(key: "k", status: -25_293), ["'k'", "-25293"]),
            (.writeFailed(key: "k", underlying: "No space left on device"), ["'k'", "No space left"]),
        ]
        for (error, fragments) in cases {
            let text = error.errorDescription ?? ""
            for fragment in fragments {
                #expect(text.contains(fragment), "\(text) lacks \(fragment)")
            }
            #expect(error.description == text)
        }
    }

    @Test func keyNamesTheKeyOfPerKeyFailuresOnly() {
        #expect(CryptStoreError.tamperedItem(key: "a").key == "a")
        #expect(CryptStoreError.notAccessibleNow(key: "b").key == "b")
        #expect(CryptStoreError.unexpectedStatus(key: nil, status: -1).key == nil)
        #expect(CryptStoreError.wrongMasterKey(path: "/v", createdWith: .keyFile).key == nil)
    }
}
