import ForgeTestSupport
import Foundation
import Testing

@testable import ForgeCore

struct FileNameEncodingTests {
    @Test func readableKeysStayReadable() {
        #expect(FileNameEncoding.encode("taskflow.onboarding") == "taskflow.onboarding")
        #expect(FileNameEncoding.encode("taskflow.projectName") == "taskflow.project^name")
        #expect(FileNameEncoding.encode("a-b_c.1") == "a-b_c.1")
    }

    @Test func separatorsDotsAndControlCharactersAreEscaped() {
        #expect(FileNameEncoding.encode("../x") == "%2e.%2fx")
        #expect(FileNameEncoding.encode("/etc/passwd") == "%2fetc%2fpasswd")
        #expect(FileNameEncoding.encode("") == "%")
        #expect(FileNameEncoding.encode("a\u{0}b") == "a%00b")
        #expect(FileNameEncoding.encode("é") == "%c3%a9")
        #expect(FileNameEncoding.encode("Cafe\u{301}") == "^caf%c3%a9")  // escaped in its NFC spelling
    }

    @Test(arguments: [
        "", ".", "..", "../x", "/etc/passwd", "a\u{0}b", "Case", "case", "🔥", "%41", "^a", "~", "a b\tc\n",
        String(repeating: "Zz9.", count: 80),
    ])
    func encodingIsReversible(key: String) {
        #expect(FileNameEncoding.decode(FileNameEncoding.encode(key)) == key)
    }

    @Test func generatedKeysNeverCollideEvenWhenCaseIsFolded() {
        var generator = SeededGenerator(seed: 0x5EED)
        let alphabet = Array("aAbB.~%^/\\:\u{0}\t é🔥-_zZ")
        var names: [String: String] = [:]
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let key = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let folded = FileNameEncoding.encode(key).lowercased()
            if let previous = names[folded] {
                #expect(previous == key, "\(previous.debugDescription) and \(key.debugDescription) collide")
            }
            names[folded] = key
            #expect(!folded.contains("/") && !folded.hasPrefix("."))
        }
    }

    @Test func truncationNeverSplitsAnEscape() {
        let encoded = FileNameEncoding.encode(String(repeating: "é", count: 100))
        let truncated = FileNameEncoding.truncatedEncodedName(encoded, maximumBytes: 200)
        #expect(truncated.utf8.count == 198)
        #expect(FileNameEncoding.decode(truncated) == String(repeating: "é", count: 33))
    }

    @Test(arguments: [
        "", "photo-01234.jpg", "caf\u{E9}", "cafe\u{301}", "\u{D6}lfass", "O\u{308}lfass", "写真", "αρχείο", "가",
        "\u{1100}\u{1161}", "e\u{301}\u{323}", "e\u{323}\u{301}", "\u{1E0D}\u{307}", "d\u{307}\u{323}", "\u{212B}",
        "\u{C5}", "\u{958}", "🔥", "a\u{0}b",
    ])
    func isCanonicalMeansTheNFCSpellingIsTheSameBytes(name: String) {
        let nfc = name.precomposedStringWithCanonicalMapping
        #expect(FileNameEncoding.isCanonical(name) == nfc.utf8.elementsEqual(name.utf8))
        #expect(FileNameEncoding.isCanonical(nfc))
    }

    @Test func stableHashIsFixedAndCanonical() {
        #expect(FileNameEncoding.stableHash("") == "cbf29ce484222325")
        #expect(FileNameEncoding.stableHash("a") == "af63dc4c8601ec8c")
        #expect(FileNameEncoding.stableHash("caf\u{E9}") == FileNameEncoding.stableHash("cafe\u{301}"))
    }
}
