import Foundation

/// Asks for a passphrase on the terminal (`/dev/tty`), without echoing what is typed.
///
/// The terminal is used even when standard input and output are redirected, so `forge … > file` still asks.
enum PassphrasePrompt {
    /// Writes `prompt` to the terminal and returns the line typed, without its newline; nil when the
    /// process has no terminal.
    static func ask(_ prompt: String) -> String? {
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { return nil }
        defer { close(terminal) }
        var settings = termios()
        let canHideInput = tcgetattr(terminal, &settings) == 0
        if canHideInput {
            var hidden = settings
            hidden.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(terminal, TCSAFLUSH, &hidden)
        }
        defer {
            if canHideInput { tcsetattr(terminal, TCSAFLUSH, &settings) }
            // The newline the user typed was not echoed.
            send(Data("\n".utf8), to: terminal)
        }
        send(Data(prompt.utf8), to: terminal)
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(terminal, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    private static func send(_ data: Data, to terminal: Int32) {
        data.withUnsafeBytes { bytes in
            _ = write(terminal, bytes.baseAddress, bytes.count)
        }
    }
}
