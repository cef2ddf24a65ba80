import Foundation
import Testing

@testable import forge

/// What `files cat` considers safe to write to a terminal, and the hex dump it offers instead.
struct TerminalTextTests {
    @Test func textWithNewlinesTabsAndCRLFLineEndsIsPrintable() {
        #expect(TerminalText.isPrintable(Data()))
        #expect(TerminalText.isPrintable(Data("naïve café\tnote\nline two\r\n".utf8)))
    }

    @Test func invalidUTF8AndControlCharactersAreNot() {
        #expect(!TerminalText.isPrintable(Data([0xFF, 0xD8, 0xFF, 0xE0])))
        #expect(!TerminalText.isPrintable(Data("clear\u{1B}[2J".utf8)))
        #expect(!TerminalText.isPrintable(Data("nul\u{0}".utf8)))
        #expect(!TerminalText.isPrintable(Data("c1 \u{9B}31m".utf8)))
        #expect(!TerminalText.isPrintable(Data("lone\rreturn".utf8)))
    }

    @Test func hexDumpHasTheLayoutOfHexdumpC() {
        let data = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("TaskFlow demo".utf8)
        #expect(
            HexDump.lines(of: data) == [
                "00000000  ff d8 ff e0 54 61 73 6b  46 6c 6f 77 20 64 65 6d  |....TaskFlow dem|",
                "00000010  6f                                                |o|",
                "00000011",
            ]
        )
        #expect(HexDump.lines(of: Data()) == ["00000000"])
    }
}
